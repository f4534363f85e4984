//! A cache of values loaded from the database, dropped as a whole when what they were loaded
//! from changes. A value loaded while a change commits is never kept: each load remembers the
//! generation it started in, and only a value of the current generation is used or stored.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

pub(crate) struct Cache<K, V> {
    /// What the cache holds, for its metrics (`cairn_cache_total{cache,result}`).
    name: &'static str,
    capacity: usize,
    generation: AtomicU64,
    entries: Mutex<HashMap<K, (u64, Arc<V>)>>,
}

impl<K: Eq + Hash + Clone, V> Cache<K, V> {
    pub(crate) fn new(name: &'static str, capacity: usize) -> Cache<K, V> {
        Cache {
            name,
            capacity,
            generation: AtomicU64::new(0),
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// The value of `key`: kept, or loaded by `load` (and kept).
    pub(crate) async fn get<E>(
        &self,
        key: K,
        load: impl AsyncFnOnce() -> Result<V, E>,
    ) -> Result<Arc<V>, E> {
        let generation = self.generation.load(Ordering::Acquire);
        if let Some((g, v)) = self.lock().get(&key)
            && *g == generation
        {
            crate::metrics::cache_lookup(self.name, true);
            return Ok(v.clone());
        }
        crate::metrics::cache_lookup(self.name, false);
        let value = Arc::new(load().await?);
        let mut entries = self.lock();
        if self.generation.load(Ordering::Acquire) == generation {
            if entries.len() >= self.capacity {
                entries.clear();
            }
            entries.insert(key, (generation, value.clone()));
        }
        Ok(value)
    }

    /// How many times the values were dropped: what was loaded under another number is stale.
    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Drops every value.
    pub(crate) fn invalidate(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<K, (u64, Arc<V>)>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}
