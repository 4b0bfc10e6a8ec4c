//! Games running on their own: each game held by the server is a [`Slot`], whose driver
//! plays its chance and bots on the blocking pool while requests read it. The game's lock
//! is held only for a step or a view (never while a bot thinks), and every change is
//! announced on the slot's [`Progress`] channel, which the game page's event stream
//! follows.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{watch, Semaphore};

use super::guard::same_token;
use super::session::{WebGame, Work};
use super::store::lock;

/// What the event stream says of a game: enough for a page to know it must read again,
/// and who is thinking. Only what every player sees.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Progress {
    pub version: u64,
    pub steps: usize,
    pub decider: Option<u8>,
    /// The seat whose bot is thinking.
    pub thinking: Option<u8>,
    pub over: bool,
    /// Why the game stopped before its end.
    pub failure: Option<String>,
}

/// One game held by the server, with its seats' tokens and its progress channel.
pub struct Slot {
    pub game: Mutex<WebGame>,
    /// Each human seat's secret (none for a bot's seat): what a person shows to see the
    /// seat's hidden things, decide and undo for it.
    tokens: Vec<Option<String>>,
    progress: watch::Sender<Progress>,
    /// Whether a driver plays the game now (changed under the game's lock).
    driving: Mutex<bool>,
}

impl Slot {
    pub fn new(game: WebGame, tokens: Vec<Option<String>>) -> Slot {
        let progress = watch::Sender::new(progress_of(&game));
        Slot {
            game: Mutex::new(game),
            tokens,
            progress,
            driving: Mutex::new(false),
        }
    }

    pub fn tokens(&self) -> &[Option<String>] {
        &self.tokens
    }

    /// Whether `token` is `seat`'s: the seat is a person's and the token theirs.
    pub fn holds(&self, seat: u8, token: Option<&str>) -> bool {
        match (self.tokens.get(seat as usize), token) {
            (Some(Some(expected)), Some(given)) => same_token(given, expected),
            _ => false,
        }
    }

    pub fn subscribe(&self) -> watch::Receiver<Progress> {
        self.progress.subscribe()
    }

    /// Tells the event streams what the game is now.
    pub fn announce(&self, game: &WebGame) {
        self.progress.send_if_modified(|p| {
            let now = progress_of(game);
            let changed = *p != now;
            *p = now;
            changed
        });
    }
}

fn progress_of(game: &WebGame) -> Progress {
    Progress {
        version: game.version,
        steps: game.table.steps.len(),
        decider: game.decider(),
        thinking: game.thinking,
        over: game.is_over(),
        failure: game.failure.clone(),
    }
}

/// The server's work off the request path: games' drivers, of which as many bots think at
/// once as there are cores (a game's reads are never slowed by another's search beyond
/// its share of the machine), and as many replays run at once.
pub struct Workers {
    thinkers: Arc<Semaphore>,
    pub replays: Arc<Semaphore>,
}

impl Workers {
    pub fn new() -> Workers {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Workers {
            thinkers: Arc::new(Semaphore::new(cores)),
            replays: Arc::new(Semaphore::new(cores)),
        }
    }

    /// Starts the game's driver if it has work and none runs: called after the game is
    /// created and after each change a person makes.
    pub fn kick(&self, slot: &Arc<Slot>) {
        {
            let game = lock(&slot.game);
            slot.announce(&game);
            let mut driving = lock(&slot.driving);
            if *driving || !game.has_work() {
                return;
            }
            *driving = true;
        }
        let (slot, thinkers) = (slot.clone(), self.thinkers.clone());
        tokio::spawn(async move {
            loop {
                let Ok(permit) = thinkers.clone().acquire_owned().await else {
                    break;
                };
                let worker = slot.clone();
                let more = tokio::task::spawn_blocking(move || work_a_while(&worker))
                    .await
                    .unwrap_or(false);
                drop(permit);
                if !more {
                    break;
                }
            }
        });
    }
}

/// A slice of a driver's work before it lets other games' workers have the pool.
const SLICE: Duration = Duration::from_millis(200);

/// Plays the game for about [`SLICE`] or one bot's decision; whether there is more to do
/// (when not, the driver stops: `driving` is cleared under the game's lock, so that a
/// person's change after it starts a new one).
fn work_a_while(slot: &Slot) -> bool {
    let started = Instant::now();
    loop {
        let work = {
            let mut game = lock(&slot.game);
            let work = game.work();
            slot.announce(&game);
            if matches!(work, Work::Waiting) {
                *lock(&slot.driving) = false;
                return false;
            }
            work
        };
        if let Work::Think(thinking) = work {
            let thought = thinking.decide();
            let mut game = lock(&slot.game);
            game.conclude(thought);
            slot.announce(&game);
            return true;
        }
        if started.elapsed() >= SLICE {
            return true;
        }
    }
}
