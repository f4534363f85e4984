//! Where uploaded files are kept: one `Storage` over an `object_store` backend chosen by URL,
//! `file:///path` (a directory, the default `--storage-dir`), `s3://bucket/prefix` (S3 and
//! S3-compatible services, configured by the usual `AWS_*` environment variables or by
//! options in the URL's query, `?endpoint=http://127.0.0.1:9000&region=eu-west-1`) or
//! `memory:` (tests). Files are content-addressed (`ab/cd/<sha256>/<file name>`), so every
//! instance over the same backend agrees on them and a path never changes content
//! (`paths.rs`). Field types store their files through the [`FileStore`] interface defined
//! here (`file_store.rs`); this layer knows nothing of them.
//!
//! Field types read values synchronously; the backends are asynchronous. Their calls run on a
//! small runtime of their own (`io`), which a caller waits for without holding up the other
//! tasks of its runtime. An upload is first spooled to a local file while it is hashed (the
//! key holds the hash), then streamed to the backend, in parts when it is large: a file is
//! never held in memory whole, and it is fully stored before any row can reference it.

mod file_store;
mod gc;
mod paths;
mod serve;

pub use file_store::{FileStore, HEAD_BYTES, PutError, Stored};
pub use gc::{Collected, collect};
pub use paths::{content_path, derived_path, sanitize_file_name};
pub use serve::endpoint;

use futures_util::{StreamExt, TryStreamExt};
use object_store::path::Path as Key;
use object_store::{ObjectStore, PutPayload, WriteMultipart};
use paths::{hashed_path, hex};
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// Files up to this size are stored in one request; larger ones in parts of this size.
const PART_BYTES: usize = 8 * 1024 * 1024;

/// What [`Storage::peek`] finds of a file.
#[derive(Debug, Clone)]
pub struct Peeked {
    pub size: u64,
    /// Its first 64 KiB.
    pub head: bytes::Bytes,
    /// When it was last written, in Unix seconds.
    pub modified: i64,
}

/// The uploaded files of a repository.
pub struct Storage {
    store: Arc<dyn ObjectStore>,
    /// Where uploads are spooled before they are stored.
    spool: PathBuf,
    /// The path files are served from (`/var/storage`).
    uri_prefix: String,
    /// The backend, as configured (for logs).
    pub url: String,
}

impl Storage {
    /// The storage `url` names (`file:///…`, `s3://bucket/prefix`, `memory:`), or the
    /// directory `dir` when no URL is given; files are served under `uri_prefix`.
    pub fn open(
        url: Option<&str>,
        dir: &std::path::Path,
        uri_prefix: &str,
    ) -> anyhow::Result<Storage> {
        let uri_prefix = uri_prefix.trim_end_matches('/').to_string();
        let local = |root: PathBuf| -> anyhow::Result<Storage> {
            std::fs::create_dir_all(&root)
                .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", root.display()))?;
            let store = object_store::local::LocalFileSystem::new_with_prefix(&root)?
                .with_automatic_cleanup(true);
            Ok(Storage {
                store: Arc::new(store),
                spool: root.join(".incoming"),
                uri_prefix: uri_prefix.clone(),
                url: format!("file://{}", root.display()),
            })
        };
        let Some(url) = url.filter(|u| !u.is_empty()) else {
            return local(dir.to_path_buf());
        };
        if let Some(path) = url.strip_prefix("file://") {
            if path.is_empty() {
                anyhow::bail!("--storage-url {url}: give a directory, e.g. file:///var/cairn");
            }
            return local(PathBuf::from(path));
        }
        if url == "memory:" {
            return Ok(Storage::memory(&uri_prefix));
        }
        let Some(rest) = url.strip_prefix("s3://") else {
            anyhow::bail!(
                "--storage-url {url}: give file:///path or s3://bucket/prefix (S3 and compatible services)"
            );
        };
        let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() {
            anyhow::bail!("--storage-url {url}: the bucket is missing");
        }
        let mut builder = object_store::aws::AmazonS3Builder::from_env().with_bucket_name(bucket);
        let mut endpoint = std::env::var("AWS_ENDPOINT_URL")
            .or_else(|_| std::env::var("AWS_ENDPOINT"))
            .unwrap_or_default();
        // Options in the query (`?endpoint=…&region=…`) win over the environment.
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let option: object_store::aws::AmazonS3ConfigKey = k
                .parse()
                .map_err(|_| anyhow::anyhow!("--storage-url: unknown S3 option '{k}'"))?;
            if k.ends_with("endpoint") || k.ends_with("endpoint_url") {
                endpoint = v.to_string();
            }
            builder = builder.with_config(option, v);
        }
        // A plain-HTTP endpoint (a local MinIO or test server) is allowed when named.
        if endpoint.starts_with("http://") {
            builder = builder.with_allow_http(true);
        }
        let s3: Arc<dyn ObjectStore> = Arc::new(builder.build()?);
        let prefix = prefix.trim_matches('/');
        let store: Arc<dyn ObjectStore> = if prefix.is_empty() {
            s3
        } else {
            Arc::new(object_store::prefix::PrefixStore::new(s3, prefix))
        };
        Ok(Storage {
            store,
            spool: std::env::temp_dir().join("cairn-spool"),
            uri_prefix,
            url: url.to_string(),
        })
    }

    /// Files in memory (tests), served from `uri_prefix`.
    pub fn memory(uri_prefix: &str) -> Storage {
        Storage {
            store: Arc::new(object_store::memory::InMemory::new()),
            spool: std::env::temp_dir().join("cairn-spool"),
            uri_prefix: uri_prefix.trim_end_matches('/').to_string(),
            url: "memory:".into(),
        }
    }

    /// The backend, for the download endpoint and the collector.
    pub fn store(&self) -> Arc<dyn ObjectStore> {
        self.store.clone()
    }

    /// Checks that the backend answers (a listing of one key): at startup, so that a wrong
    /// bucket or credentials fail at once rather than at the first upload.
    pub async fn check(&self) -> anyhow::Result<()> {
        let store = self.store.clone();
        on_io(async move {
            let mut list = store.list(None);
            match list.next().await {
                Some(Err(e)) => Err(anyhow::anyhow!("{e}")),
                _ => Ok(()),
            }
        })
        .await
        .map_err(|e| anyhow::anyhow!("the storage {} does not answer: {e}", self.url))
    }

    /// Every stored object, spool and partial writes included.
    pub async fn objects(&self) -> anyhow::Result<Vec<object_store::ObjectMeta>> {
        let store = self.store.clone();
        Ok(on_io(async move { store.list(None).try_collect().await }).await?)
    }

    /// The bytes stored at `path`; `None` when there are none.
    pub async fn read(&self, path: &str) -> Result<Option<bytes::Bytes>, String> {
        let Some(key) = key(path) else {
            return Ok(None);
        };
        let store = self.store.clone();
        on_io(async move {
            match store.get(&key).await {
                Ok(got) => got.bytes().await.map(Some).map_err(|e| e.to_string()),
                Err(object_store::Error::NotFound { .. }) => Ok(None),
                Err(e) => Err(e.to_string()),
            }
        })
        .await
    }

    /// The size, first 64 KiB and time of last change (Unix seconds) of the file at `path`;
    /// `None` when there is none.
    pub async fn peek(&self, path: &str) -> Result<Option<Peeked>, String> {
        let Some(key) = key(path) else {
            return Ok(None);
        };
        let store = self.store.clone();
        on_io(async move {
            let meta = match store.head(&key).await {
                Ok(meta) => meta,
                Err(object_store::Error::NotFound { .. }) => return Ok(None),
                Err(e) => return Err(e.to_string()),
            };
            let modified = meta.last_modified.timestamp();
            if meta.size == 0 {
                return Ok(Some(Peeked {
                    size: 0,
                    head: bytes::Bytes::new(),
                    modified,
                }));
            }
            let head = store
                .get_range(&key, 0..meta.size.min(64 * 1024))
                .await
                .map_err(|e| e.to_string())?;
            Ok(Some(Peeked {
                size: meta.size,
                head,
                modified,
            }))
        })
        .await
    }

    /// Stores `data` at `path` (a derived file, such as an image variation), in one request.
    pub async fn write(&self, path: &str, data: Vec<u8>) -> Result<(), String> {
        let key = key(path).ok_or_else(|| format!("'{path}' is not a stored path"))?;
        let store = self.store.clone();
        on_io(async move { store.put(&key, PutPayload::from(data)).await })
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// Stores the spooled file `tmp` (`size` bytes) at `key`: in one request when small, in
    /// parts read from the file otherwise. Storing it again refreshes its modification time,
    /// which the collector's grace period counts from.
    fn store_file(&self, tmp: &std::path::Path, size: usize, key: Key) -> Result<(), String> {
        let store = self.store.clone();
        let mut file = std::fs::File::open(tmp).map_err(|e| e.to_string())?;
        if size <= PART_BYTES {
            let mut data = Vec::with_capacity(size);
            file.read_to_end(&mut data).map_err(|e| e.to_string())?;
            return block(async move { store.put(&key, PutPayload::from(data)).await })
                .map(|_| ())
                .map_err(|e| e.to_string());
        }
        let upload =
            block(async move { store.put_multipart(&key).await }).map_err(|e| e.to_string())?;
        let mut writer = WriteMultipart::new_with_chunk_size(upload, PART_BYTES);
        let mut buf = vec![0u8; PART_BYTES];
        loop {
            let n = match read_full(&mut file, &mut buf) {
                Ok(n) => n,
                Err(e) => {
                    let _ = block(async move { writer.abort().await });
                    return Err(e.to_string());
                }
            };
            if n == 0 {
                break;
            }
            let chunk = buf[..n].to_vec();
            // At most a few parts in flight: memory stays bounded whatever the file's size.
            writer = block(async move {
                writer.wait_for_capacity(2).await.map(|_| {
                    writer.write(&chunk);
                    writer
                })
            })
            .map_err(|e| e.to_string())?;
        }
        block(async move { writer.finish().await })
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}

/// Reads until `buf` is full or the input ends.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match r.read(&mut buf[filled..])? {
            0 => break,
            n => filled += n,
        }
    }
    Ok(filled)
}

/// The key of a stored path that stays inside the store: relative, no empty, `.` or `..`
/// segment, nothing hidden (the spool).
pub fn key(path: &str) -> Option<Key> {
    let path = path.trim_start_matches('/');
    if path.is_empty()
        || path
            .split('/')
            .any(|s| s.is_empty() || s.starts_with('.') || s.contains('\\'))
    {
        return None;
    }
    Key::parse(path).ok()
}

impl FileStore for Storage {
    fn put_reader(&self, reader: &mut dyn Read, file_name: &str) -> Result<Stored, PutError> {
        let failed = PutError::Store;
        std::fs::create_dir_all(&self.spool)
            .map_err(|e| failed(format!("cannot create {}: {e}", self.spool.display())))?;
        let tmp = tempfile::NamedTempFile::new_in(&self.spool)
            .map_err(|e| failed(format!("cannot spool the upload: {e}")))?;
        let mut file = tmp.as_file();
        let mut hasher = Sha256::new();
        let mut head = Vec::new();
        let mut size = 0usize;
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = reader
                .read(&mut buf)
                .map_err(|e| PutError::Input(e.to_string()))?;
            if n == 0 {
                break;
            }
            let chunk = &buf[..n];
            hasher.update(chunk);
            if head.len() < HEAD_BYTES {
                let take = (HEAD_BYTES - head.len()).min(n);
                head.extend_from_slice(&chunk[..take]);
            }
            file.write_all(chunk)
                .map_err(|e| failed(format!("cannot spool the upload: {e}")))?;
            size += n;
        }
        file.flush().map_err(|e| failed(e.to_string()))?;
        let rel = hashed_path(&hex(&hasher.finalize()), file_name);
        let key = Key::parse(&rel).map_err(|e| failed(e.to_string()))?;
        let store = self.store.clone();
        let head_key = key.clone();
        let existed = match block(async move { store.head(&head_key).await }) {
            Ok(_) => true,
            Err(object_store::Error::NotFound { .. }) => false,
            Err(e) => return Err(failed(e.to_string())),
        };
        self.store_file(tmp.path(), size, key).map_err(failed)?;
        Ok(Stored {
            path: rel,
            size: size as i64,
            head,
            created: !existed,
        })
    }

    fn remove(&self, path: &str) {
        let Some(key) = key(path) else {
            return;
        };
        let store = self.store.clone();
        if let Err(e) = block(async move { store.delete(&key).await })
            && !matches!(e, object_store::Error::NotFound { .. })
        {
            tracing::warn!(error = %e, %path, "a stored file could not be removed");
        }
    }

    fn uri(&self, path: &str) -> String {
        format!("{}/{}", self.uri_prefix, path.trim_start_matches('/'))
    }

    fn read(&self, path: &str) -> Result<Option<Vec<u8>>, String> {
        let Some(key) = key(path) else {
            return Ok(None);
        };
        let store = self.store.clone();
        block(async move {
            match store.get(&key).await {
                Ok(got) => got.bytes().await.map(|b| Some(b.to_vec())),
                Err(object_store::Error::NotFound { .. }) => Ok(None),
                Err(e) => Err(e),
            }
        })
        .map_err(|e| e.to_string())
    }

    fn stored(&self, path: &str) -> Result<Option<Stored>, String> {
        let Some(key) = key(path) else {
            return Ok(None);
        };
        let store = self.store.clone();
        let found = block(async move {
            // The size first: an empty file has no byte range to read.
            let meta = match store.head(&key).await {
                Ok(meta) => meta,
                Err(object_store::Error::NotFound { .. }) => return Ok(None),
                Err(e) => return Err(e.to_string()),
            };
            if meta.size == 0 {
                return Ok(Some((0, Vec::new())));
            }
            let head = store
                .get_range(&key, 0..meta.size.min(HEAD_BYTES as u64))
                .await
                .map_err(|e| e.to_string())?;
            Ok(Some((meta.size, head.to_vec())))
        })?;
        Ok(found.map(|(size, head)| Stored {
            path: path.trim_start_matches('/').to_string(),
            size: size as i64,
            head,
            created: false,
        }))
    }
}

/// The runtime that runs the backends' calls.
fn io() -> &'static tokio::runtime::Runtime {
    static IO: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    IO.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("cairn-storage")
            .enable_all()
            .build()
            .expect("the storage runtime starts")
    })
}

/// Runs `f` on the storage runtime and waits for it, from synchronous code: inside a
/// multi-threaded runtime the waiting worker hands its other tasks on first.
fn block<F>(f: F) -> F::Output
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    io().spawn(async move {
        let _ = tx.send(f.await);
    });
    let wait = || rx.recv().expect("the storage runtime answers");
    match tokio::runtime::Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(tokio::runtime::RuntimeFlavor::MultiThread) => tokio::task::block_in_place(wait),
        _ => wait(),
    }
}

/// Runs `f` on the storage runtime, from asynchronous code.
pub(crate) async fn on_io<F>(f: F) -> F::Output
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    io().spawn(f).await.expect("a storage task completes")
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Storage {
        /// Stores `data` as `file_name`; its path.
        fn put(&self, data: &[u8], file_name: &str) -> Result<String, PutError> {
            self.put_reader(&mut &data[..], file_name).map(|s| s.path)
        }
    }

    #[test]
    fn memory_storage_is_content_addressed() {
        let m = Storage::memory("/var/storage/");
        let a = m.put(b"hello", "a.txt").unwrap();
        assert_eq!(m.put(b"hello", "a.txt").unwrap(), a);
        assert!(!m.put_reader(&mut &b"hello"[..], "a.txt").unwrap().created);
        assert!(m.put_reader(&mut &b"new"[..], "a.txt").unwrap().created);
        assert!(a.starts_with("2c/f2/2cf24dba"));
        assert!(a.ends_with("/a.txt"));
        assert_eq!(m.uri(&a), format!("/var/storage/{a}"));
        let s = m.stored(&a).unwrap().unwrap();
        assert_eq!((s.size, s.head.as_slice()), (5, &b"hello"[..]));
        assert_eq!(m.stored("nope/x"), Ok(None));
        assert_eq!(m.stored("../../etc/passwd"), Ok(None));
        m.remove(&a);
        assert_eq!(m.stored(&a), Ok(None));
    }

    #[test]
    fn directory_storage_writes_reads_and_spools_nothing_left() {
        let dir = tempfile::tempdir().unwrap();
        let d = Storage::open(None, dir.path(), "/var/storage").unwrap();
        let p = d.put(b"data", "f.bin").unwrap();
        assert_eq!(d.stored(&p).unwrap().unwrap().head, b"data");
        assert_eq!(std::fs::read(dir.path().join(&p)).unwrap(), b"data");
        let empty = d.put(b"", "e.txt").unwrap();
        assert_eq!(d.stored(&empty).unwrap().unwrap().size, 0);
        let spooled = std::fs::read_dir(dir.path().join(".incoming")).unwrap();
        assert_eq!(spooled.count(), 0);
    }

    #[test]
    fn large_files_are_stored_in_parts() {
        let dir = tempfile::tempdir().unwrap();
        let d = Storage::open(None, dir.path(), "/var/storage").unwrap();
        let big: Vec<u8> = (0..PART_BYTES * 2 + 123).map(|i| (i % 251) as u8).collect();
        let p = d.put(&big, "big.bin").unwrap();
        assert!(matches!(
            d.put_reader(&mut Failing, "x.bin"),
            Err(PutError::Input(_))
        ));
        assert_eq!(std::fs::read(dir.path().join(&p)).unwrap(), big);
        assert_eq!(d.stored(&p).unwrap().unwrap().size, big.len() as i64);
    }

    /// An input that cannot be read.
    struct Failing;

    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("bad base64"))
        }
    }

    #[test]
    fn keys_stay_inside_the_store() {
        assert!(key("ab/cd/x/f.txt").is_some());
        for bad in ["", "../x", "a/../b", ".incoming/x", "a//b", "a\\b"] {
            assert!(key(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn urls_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        for bad in ["ftp://x", "s3://", "file://", "s3://b?colour=red"] {
            assert!(Storage::open(Some(bad), dir.path(), "/s").is_err(), "{bad}");
        }
        let sub = dir.path().join("files");
        let url = format!("file://{}", sub.display());
        let s = Storage::open(Some(&url), dir.path(), "/s").unwrap();
        s.put(b"x", "x.txt").unwrap();
        assert!(sub.is_dir());
    }
}
