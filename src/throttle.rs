//! Slowing down password guessing: failed logins are counted per login and per client
//! address; past a threshold, each further failure doubles the wait before the next attempt
//! is even checked (429 with `Retry-After` meanwhile). A right password after the wait clears
//! the count. Kept in memory, bounded.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How logins are slowed down.
#[derive(Debug, Clone, Copy)]
pub struct ThrottleSettings {
    /// Failures allowed before waits begin.
    pub free_attempts: u32,
    /// The first wait; each further failure doubles it.
    pub base_delay: Duration,
    /// The longest wait.
    pub max_delay: Duration,
}

#[derive(Debug, Clone, Copy)]
struct Failures {
    count: u32,
    /// No attempt is checked before then.
    until: Option<Instant>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Login(String),
    Address(IpAddr),
}

const CAPACITY: usize = 100_000;

pub struct LoginThrottle {
    settings: ThrottleSettings,
    failures: Mutex<HashMap<Key, Failures>>,
}

impl LoginThrottle {
    pub fn new(settings: ThrottleSettings) -> LoginThrottle {
        LoginThrottle {
            settings,
            failures: Mutex::new(HashMap::new()),
        }
    }

    fn keys(login: &str, peer: Option<IpAddr>) -> impl Iterator<Item = Key> {
        std::iter::once(Key::Login(login.to_string())).chain(peer.map(Key::Address))
    }

    /// The wait left before an attempt for `login` from `peer` is checked, if any.
    pub fn wait(&self, login: &str, peer: Option<IpAddr>) -> Option<Duration> {
        let map = self.lock();
        if map.is_empty() {
            return None;
        }
        let now = Instant::now();
        Self::keys(login, peer)
            .filter_map(|k| map.get(&k)?.until)
            .filter(|until| *until > now)
            .map(|until| until - now)
            .max()
    }

    /// A wrong password (or login).
    pub fn failed(&self, login: &str, peer: Option<IpAddr>) {
        let s = self.settings;
        let now = Instant::now();
        let mut map = self.lock();
        if map.len() >= CAPACITY {
            // Forget the entries whose wait is over; all of them when that is not enough.
            map.retain(|_, f| f.until.is_some_and(|u| u > now));
            if map.len() >= CAPACITY {
                map.clear();
            }
        }
        for key in Self::keys(login, peer) {
            let f = map.entry(key).or_insert(Failures {
                count: 0,
                until: None,
            });
            f.count = f.count.saturating_add(1);
            if f.count > s.free_attempts {
                let doublings = (f.count - s.free_attempts - 1).min(30);
                let delay = s
                    .base_delay
                    .saturating_mul(1u32 << doublings)
                    .min(s.max_delay);
                f.until = Some(now + delay);
            }
        }
    }

    /// A right password: the count of its login and address starts again.
    pub fn succeeded(&self, login: &str, peer: Option<IpAddr>) {
        let mut map = self.lock();
        if map.is_empty() {
            return;
        }
        for key in Self::keys(login, peer) {
            map.remove(&key);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Failures>> {
        self.failures.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_past_the_free_attempts_and_success_clears_them() {
        let t = LoginThrottle::new(ThrottleSettings {
            free_attempts: 2,
            base_delay: Duration::from_secs(10),
            max_delay: Duration::from_secs(25),
        });
        let peer = Some(IpAddr::from([127, 0, 0, 1]));
        t.failed("a", peer);
        t.failed("a", peer);
        assert_eq!(t.wait("a", peer), None);
        t.failed("a", peer);
        let w = t.wait("a", peer).unwrap();
        assert!(w > Duration::from_secs(9) && w <= Duration::from_secs(10));
        t.failed("a", peer);
        assert!(t.wait("a", peer).unwrap() > Duration::from_secs(19));
        t.failed("a", peer);
        assert!(t.wait("a", peer).unwrap() <= Duration::from_secs(25));
        // The address is slowed down for other logins too.
        assert!(t.wait("b", peer).is_some());
        assert_eq!(t.wait("b", None), None);
        t.succeeded("a", peer);
        assert_eq!(t.wait("a", peer), None);
    }
}
