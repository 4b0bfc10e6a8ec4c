//! The games in memory: at most a given number, each dropped once idle for a given time,
//! so that a server left running does not grow without bound. Each game's id is 128
//! random bits: one game's id says nothing of another's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::guard::random_hex;
use super::live::Slot;

/// A game id's random bytes: 128 bits, 32 hex digits.
const ID_BYTES: usize = 16;

pub struct Store {
    games: Mutex<HashMap<String, Held>>,
    limit: usize,
    idle: Duration,
}

struct Held {
    game: Arc<Slot>,
    last_used: Instant,
}

impl Store {
    pub fn new(limit: usize, idle: Duration) -> Store {
        Store {
            games: Mutex::new(HashMap::new()),
            limit,
            idle,
        }
    }

    /// Keeps a new game and gives its id, or says that the server holds as many as it may.
    pub fn insert(&self, game: Arc<Slot>) -> Result<String, String> {
        let mut games = lock(&self.games);
        let now = Instant::now();
        games.retain(|_, held| now.duration_since(held.last_used) < self.idle);
        if games.len() >= self.limit {
            return Err(format!(
                "the server holds {} games, as many as it may (--max-games); a game is dropped after {} minutes without a request",
                games.len(),
                self.idle.as_secs() / 60
            ));
        }
        let id = loop {
            let id = random_hex(ID_BYTES)?;
            if !games.contains_key(&id) {
                break id;
            }
        };
        games.insert(
            id.clone(),
            Held {
                game,
                last_used: now,
            },
        );
        Ok(id)
    }

    /// The game with this id, if it is still held (its idle time starts again).
    pub fn get(&self, id: &str) -> Option<Arc<Slot>> {
        let mut games = lock(&self.games);
        let now = Instant::now();
        games.retain(|_, held| now.duration_since(held.last_used) < self.idle);
        let held = games.get_mut(id)?;
        held.last_used = now;
        Some(held.game.clone())
    }
}

/// A lock whose holder panicked still guards consistent data here (every change is made
/// whole or not at all), so it is taken rather than poisoning the server.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
