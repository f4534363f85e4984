//! The change feed's wake-up: a commit, or the server stopping, told to every stream at once.

use tokio::sync::watch;

/// What the streams of the change feed are told.
#[derive(Debug, Clone, Copy, Default)]
pub struct Signal {
    /// Changes committed through this instance (or announced by another one).
    pub(crate) changes: u64,
    /// The server is stopping: streams end, so requests in flight can finish.
    pub(crate) stopping: bool,
}

/// Wakes the change feed's streams.
#[derive(Debug)]
pub struct Feed(watch::Sender<Signal>);

impl Default for Feed {
    fn default() -> Feed {
        Feed(watch::Sender::new(Signal::default()))
    }
}

impl Feed {
    /// A change committed: streams look for it at once.
    pub(crate) fn changed(&self) {
        self.0.send_modify(|s| s.changes += 1);
    }

    /// The server is stopping: every stream ends.
    pub fn stop(&self) {
        self.0.send_modify(|s| s.stopping = true);
    }

    pub(crate) fn subscribe(&self) -> watch::Receiver<Signal> {
        self.0.subscribe()
    }
}
