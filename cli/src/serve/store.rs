//! The games in memory: at most a given number, each dropped once idle for a given time,
//! so that a server left running does not grow without bound.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::session::WebGame;

pub struct Store {
    games: Mutex<HashMap<String, Held>>,
    limit: usize,
    idle: Duration,
    /// Makes game ids: a counter mixed with the start time.
    counter: Mutex<u64>,
}

struct Held {
    game: Arc<Mutex<WebGame>>,
    last_used: Instant,
}

impl Store {
    pub fn new(limit: usize, idle: Duration) -> Store {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        Store {
            games: Mutex::new(HashMap::new()),
            limit,
            idle,
            counter: Mutex::new(nanos),
        }
    }

    /// Keeps a new game and gives its id, or says that the server holds as many as it may.
    pub fn insert(&self, game: WebGame) -> Result<String, String> {
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
        let id = self.next_id();
        games.insert(
            id.clone(),
            Held {
                game: Arc::new(Mutex::new(game)),
                last_used: now,
            },
        );
        Ok(id)
    }

    /// The game with this id, if it is still held (its idle time starts again).
    pub fn get(&self, id: &str) -> Option<Arc<Mutex<WebGame>>> {
        let mut games = lock(&self.games);
        let now = Instant::now();
        games.retain(|_, held| now.duration_since(held.last_used) < self.idle);
        let held = games.get_mut(id)?;
        held.last_used = now;
        Some(held.game.clone())
    }

    fn next_id(&self) -> String {
        let mut counter = lock(&self.counter);
        *counter = counter.wrapping_add(0x9e37_79b9_7f4a_7c15);
        // A mix of the counter (splitmix64), so that ids are not consecutive.
        let mut z = *counter;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        format!("{:016x}", z ^ (z >> 31))
    }
}

/// A lock whose holder panicked still guards consistent data here (every change is made
/// whole or not at all), so it is taken rather than poisoning the server.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
