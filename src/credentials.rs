//! What authentication keeps between requests: verified passwords (so that argon2 runs once
//! per password), and accounts and sessions found, each kept only while nothing committed
//! since can have changed it.

use crate::error::Result;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::Mutex;

/// Remembers verified Basic credentials so that argon2 runs once per password, not once per
/// request. An entry holds a digest of the password and the stored hash it was verified
/// against: a changed password never matches an old entry.
#[derive(Default)]
pub struct CredentialCache {
    verified: Mutex<HashMap<String, ([u8; 32], String)>>,
}

const CREDENTIAL_CACHE_SIZE: usize = 10_000;

/// Rows found by a key (accounts by login, sessions by id), each with the moment it was found
/// in: used again only while nothing can have changed it since.
pub struct Kept<T> {
    found: Mutex<HashMap<String, (Since, T)>>,
}

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Kept {
            found: Mutex::default(),
        }
    }
}

/// A moment with nothing committed since: the generation of a cached read, or (without one,
/// on SQLite) the commit mark taken before the row was read.
#[derive(Clone, PartialEq)]
pub(crate) enum Since {
    Generation(u64),
    Mark(cairn_store::commits::Mark),
}

impl<T: Clone> Kept<T> {
    /// The row kept for `key` since `since`, else the one `read` finds (kept when `since` is
    /// known: it must be taken before the read, so that a commit after it changes it).
    pub(crate) async fn get_or_read(
        &self,
        key: &str,
        since: Option<Since>,
        read: impl AsyncFnOnce() -> Result<Option<T>>,
    ) -> Result<Option<T>> {
        if let Some(row) = since.as_ref().and_then(|s| self.get(key, s)) {
            return Ok(Some(row));
        }
        let found = read().await?;
        if let (Some(s), Some(row)) = (since, &found) {
            self.put(key, s, row.clone());
        }
        Ok(found)
    }

    fn get(&self, key: &str, since: &Since) -> Option<T> {
        let map = self.found.lock().unwrap_or_else(|e| e.into_inner());
        map.get(key)
            .filter(|(s, _)| s == since)
            .map(|(_, row)| row.clone())
    }

    fn put(&self, key: &str, since: Since, row: T) {
        let mut map = self.found.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= CREDENTIAL_CACHE_SIZE {
            map.retain(|_, (s, _)| *s == since);
        }
        map.insert(key.to_string(), (since, row));
    }
}

impl CredentialCache {
    fn digest(login: &str, password: &str) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(login.as_bytes());
        h.update([0]);
        h.update(password.as_bytes());
        h.finalize().into()
    }

    pub(crate) fn knows(&self, login: &str, password: &str, stored_hash: &str) -> bool {
        let map = self.verified.lock().unwrap_or_else(|e| e.into_inner());
        map.get(login)
            .is_some_and(|(d, h)| *d == Self::digest(login, password) && h == stored_hash)
    }

    pub(crate) fn remember(&self, login: &str, password: &str, stored_hash: &str) {
        let mut map = self.verified.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= CREDENTIAL_CACHE_SIZE {
            map.clear();
        }
        map.insert(
            login.to_string(),
            (Self::digest(login, password), stored_hash.to_string()),
        );
    }
}
