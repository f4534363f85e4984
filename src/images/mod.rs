//! Image variations: the variations a site offers (`config`), the reference's filters
//! (`geometry`), bounded decoding and rendering (`render`), and here the service that gives a
//! variation of a stored original. A variation is rendered the first time it is asked for and
//! kept on the storage backend under a key derived from the original's content hash and the
//! variation's definition (`_aliases/<name>/<definition digest>/<original's path>`), so every
//! instance over the backend finds it; it is then served as any stored file. Two requests for
//! the same variation at once render it once (one lock per key); renders run on blocking
//! threads, at most `workers` at a time, with at most `queue` renders waiting or running
//! (past that: [`VariationError::Busy`], a 503 with `Retry-After`).

mod config;
mod geometry;
mod render;

pub use config::{Format, Variation, Variations};
pub use render::{MAX_PIXELS, Refused, check};

use crate::storage::Storage;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// A rendered variation kept on the backend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    /// The store's path.
    pub path: String,
    pub width: u32,
    pub height: u32,
    pub size: u64,
    pub mime: &'static str,
    /// When it was written, in Unix seconds.
    pub modified: i64,
    /// Whether this call rendered it (else it was kept already).
    pub rendered: bool,
}

/// Why a variation could not be given.
#[derive(Debug)]
pub enum VariationError {
    /// Too many renders waiting: try again shortly.
    Busy,
    /// The original cannot be rendered (broken, too large, not an image this renders).
    Refused(Refused),
    /// The backend failed.
    Storage(String),
}

/// Renders and finds image variations.
pub struct Images {
    variations: Variations,
    /// One lock per key being looked up or rendered.
    flights: std::sync::Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    workers: Arc<tokio::sync::Semaphore>,
    /// Renders waiting or running, and the most allowed.
    queued: Arc<AtomicUsize>,
    queue: usize,
    renders: AtomicU64,
}

impl Images {
    /// Renders `variations` on at most `workers` threads at once, with at most `queue`
    /// renders waiting or running.
    pub fn new(variations: Variations, workers: usize, queue: usize) -> Images {
        Images {
            variations,
            flights: Default::default(),
            workers: Arc::new(tokio::sync::Semaphore::new(workers.max(1))),
            queued: Arc::new(AtomicUsize::new(0)),
            queue: queue.max(1),
            renders: AtomicU64::new(0),
        }
    }

    /// The variations offered.
    pub fn variations(&self) -> &Variations {
        &self.variations
    }

    /// Renders waiting or running now.
    pub fn queued(&self) -> usize {
        self.queued.load(Ordering::Acquire)
    }

    /// How many variations this instance has rendered.
    pub fn renders(&self) -> u64 {
        self.renders.load(Ordering::Relaxed)
    }

    /// The variation `v` of the stored original at `original` (of type `mime`): kept, or
    /// rendered and kept now.
    pub async fn variation(
        &self,
        files: &Storage,
        original: &str,
        mime: &str,
        v: &Variation,
    ) -> Result<Kept, VariationError> {
        let format = v.format.or_else(|| Format::of_mime(mime)).ok_or_else(|| {
            VariationError::Refused(Refused::Corrupt(format!(
                "{mime} is not a JPEG, PNG, GIF or WebP image"
            )))
        })?;
        // The backend is asked every time: `cairn storage gc` (another process) may have
        // removed a kept variation with its original, and the same bytes be uploaded again.
        let key = variation_path(original, v, format);
        let flight = {
            let mut flights = self.flights.lock().expect("flights");
            flights.entry(key.clone()).or_default().clone()
        };
        let result = {
            let _one = flight.lock().await;
            self.find_or_render(files, original, v, key.clone()).await
        };
        let mut flights = self.flights.lock().expect("flights");
        if flights.get(&key).is_some_and(|f| Arc::ptr_eq(f, &flight)) {
            flights.remove(&key);
        }
        result
    }

    async fn find_or_render(
        &self,
        files: &Storage,
        original: &str,
        v: &Variation,
        key: String,
    ) -> Result<Kept, VariationError> {
        // Rendered before, by this instance or another.
        if let Some(found) = files.peek(&key).await.map_err(VariationError::Storage)?
            && let Some((format, width, height)) = render::header(&found.head)
        {
            return Ok(Kept {
                width,
                height,
                size: found.size,
                mime: format.mime(),
                path: key,
                modified: found.modified,
                rendered: false,
            });
        }
        let rendered = self.render(files, original, v).await?;
        files
            .write(&key, rendered.bytes.clone())
            .await
            .map_err(VariationError::Storage)?;
        Ok(Kept {
            path: key,
            width: rendered.width,
            height: rendered.height,
            size: rendered.bytes.len() as u64,
            mime: rendered.format.mime(),
            modified: cairn_runtime::Timestamp::now().0,
            rendered: true,
        })
    }

    /// Renders `v` of `original` on a blocking thread, within the queue's bounds.
    async fn render(
        &self,
        files: &Storage,
        original: &str,
        v: &Variation,
    ) -> Result<render::Rendered, VariationError> {
        let _slot = Slot::take(&self.queued, self.queue).ok_or(VariationError::Busy)?;
        let bytes = (files.read(original).await)
            .map_err(VariationError::Storage)?
            .ok_or_else(|| {
                VariationError::Storage(format!("the original {original} is missing"))
            })?;
        let permit = (self.workers.clone().acquire_owned().await)
            .map_err(|e| VariationError::Storage(e.to_string()))?;
        let v = v.clone();
        let rendered = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            render::render(&bytes, &v)
        })
        .await
        .map_err(|e| VariationError::Storage(format!("the render failed: {e}")))?
        .map_err(VariationError::Refused)?;
        self.renders.fetch_add(1, Ordering::Relaxed);
        Ok(rendered)
    }
}

/// A place in the render queue, given back when dropped (also when its request is dropped).
struct Slot(Arc<AtomicUsize>);

impl Slot {
    fn take(queued: &Arc<AtomicUsize>, most: usize) -> Option<Slot> {
        queued
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < most).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(queued.clone()))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Where variation `v` of the stored `original` is kept, written as `format`.
pub fn variation_path(original: &str, v: &Variation, format: Format) -> String {
    crate::storage::derived_path(original, &v.name, &v.digest, format.extension())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variation_paths_hold_the_original_and_the_definition() {
        let v = Variations::defaults();
        let small = v.get("small").unwrap();
        let hash = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";
        let path = variation_path(&format!("2c/f2/{hash}/photo.png"), small, Format::Webp);
        assert_eq!(
            path,
            format!("_aliases/small/{}/2c/f2/{hash}/photo.webp", small.digest)
        );
    }

    #[test]
    fn the_queue_is_bounded() {
        let queued = Arc::new(AtomicUsize::new(0));
        let a = Slot::take(&queued, 2).unwrap();
        let _b = Slot::take(&queued, 2).unwrap();
        assert!(Slot::take(&queued, 2).is_none());
        drop(a);
        assert!(Slot::take(&queued, 2).is_some());
    }
}
