//! Reading ahead: the next batch of source rows is read (the old site's database runs its
//! statements, and their rows are decoded, on a task of its own) while the current batch is
//! converted and written, so that both databases work at once. One batch at most is read
//! ahead: memory holds two batches whatever the source's size.

use super::source::{BATCH, Row, Source};
use anyhow::{Result, anyhow};
use std::sync::Arc;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// Reads the batches of one kind, in order.
pub trait Reader: Send + 'static {
    type Batch: Send + 'static;

    /// The next batch; `None` after the last.
    fn next(&mut self, src: &Source) -> impl Future<Output = Result<Option<Self::Batch>>> + Send;
}

/// The batches of a [`Reader`], read one ahead of their use.
pub struct Ahead<B> {
    rx: mpsc::Receiver<Result<B>>,
    task: Option<JoinHandle<()>>,
}

impl<B: Send + 'static> Ahead<B> {
    /// Starts reading: the first batch is read at once.
    pub fn start<R: Reader<Batch = B>>(src: Arc<Source>, mut reader: R) -> Ahead<B> {
        let (tx, rx) = mpsc::channel(1);
        let task = tokio::spawn(async move {
            // The channel's one place is taken before a batch is read, and freed when the
            // batch before is taken: one batch is read while one is used.
            while let Ok(place) = tx.reserve().await {
                match reader.next(&src).await {
                    Ok(Some(batch)) => place.send(Ok(batch)),
                    Ok(None) => return,
                    Err(e) => return place.send(Err(e)),
                }
            }
        });
        Ahead {
            rx,
            task: Some(task),
        }
    }

    /// The next batch; `None` after the last. A reader that panicked is an error, not an end.
    pub async fn next(&mut self) -> Result<Option<B>> {
        if let Some(batch) = self.rx.recv().await {
            return batch.map(Some);
        }
        match self.task.take() {
            Some(task) => task
                .await
                .map(|()| None)
                .map_err(|e| anyhow!("reading the source failed: {e}")),
            None => Ok(None),
        }
    }
}

impl<B> Drop for Ahead<B> {
    fn drop(&mut self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}

/// The rows of one table a batch at a time, by its integer key (ascending).
pub struct ByKey {
    table: &'static str,
    columns: Vec<&'static str>,
    key: &'static str,
    after: i64,
    done: bool,
}

impl ByKey {
    pub fn new(table: &'static str, columns: &[&'static str], key: &'static str) -> ByKey {
        ByKey {
            table,
            columns: columns.to_vec(),
            key,
            after: i64::MIN,
            done: false,
        }
    }
}

impl Reader for ByKey {
    type Batch = Vec<Row>;

    async fn next(&mut self, src: &Source) -> Result<Option<Vec<Row>>> {
        if self.done {
            return Ok(None);
        }
        let rows = (src.batch_after(self.table, &self.columns, self.key, self.after, "")).await?;
        let Some(last) = rows.last() else {
            return Ok(None);
        };
        self.after = last.int(self.key);
        self.done = rows.len() < BATCH;
        Ok(Some(rows))
    }
}
