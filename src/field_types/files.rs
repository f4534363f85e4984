//! File stores for uploaded binaries: `DiskFiles` keeps them under a directory,
//! content-addressed (`ab/cd/<sha256>/<file name>`); `MemoryFiles` keeps them in memory
//! (tests).

use super::{FileStore, HEAD_BYTES, Stored};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

/// The relative path of `data` named `file_name`: `ab/cd/<sha256 hex>/<sanitized name>`.
pub fn content_path(data: &[u8], file_name: &str) -> String {
    hashed_path(&hex(&Sha256::digest(data)), file_name)
}

fn hashed_path(hash: &str, file_name: &str) -> String {
    format!(
        "{}/{}/{hash}/{}",
        &hash[0..2],
        &hash[2..4],
        sanitize_file_name(file_name)
    )
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A file name safe in a path and a URI: the last path segment, characters other than
/// letters, digits, `.`, `-` and `_` replaced by `_`, no leading dots, at most 200 bytes;
/// `file` when nothing is left.
pub fn sanitize_file_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or("");
    let mut out: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    out = out.trim_start_matches('.').to_string();
    out.truncate(200);
    if out.is_empty() {
        "file".to_string()
    } else {
        out
    }
}

/// A relative stored path that stays inside the store (no `..`, no root).
fn safe_relative(path: &str) -> Option<PathBuf> {
    let p = Path::new(path.trim_start_matches('/'));
    if path.is_empty() || p.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    Some(p.to_path_buf())
}

/// Files under a directory on disk, served from `uri_prefix` (`/var/storage`).
pub struct DiskFiles {
    pub root: PathBuf,
    pub uri_prefix: String,
}

impl DiskFiles {
    pub fn new(root: impl Into<PathBuf>, uri_prefix: impl Into<String>) -> DiskFiles {
        DiskFiles {
            root: root.into(),
            uri_prefix: uri_prefix.into().trim_end_matches('/').to_string(),
        }
    }
}

impl FileStore for DiskFiles {
    fn put(&self, data: &[u8], file_name: &str) -> Result<String, String> {
        let rel = content_path(data, file_name);
        let target = self.root.join(&rel);
        if target.exists() {
            return Ok(rel);
        }
        let dir = target
            .parent()
            .ok_or_else(|| "invalid storage path".to_string())?;
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        // Write beside the target, then rename: readers never see a partial file.
        let tmp = dir.join(format!(
            ".upload-{}-{}",
            std::process::id(),
            rand::random::<u64>()
        ));
        std::fs::write(&tmp, data).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &target).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("cannot store {}: {e}", target.display())
        })?;
        note_created(&rel);
        Ok(rel)
    }

    fn remove(&self, path: &str) {
        if let Some(rel) = safe_relative(path) {
            let _ = std::fs::remove_file(self.root.join(rel));
        }
    }

    /// Streams into a temporary file while hashing, then renames it to its content path.
    fn put_reader(&self, reader: &mut dyn Read, file_name: &str) -> Result<Stored, String> {
        let tmp_dir = self.root.join(".incoming");
        std::fs::create_dir_all(&tmp_dir)
            .map_err(|e| format!("cannot create {}: {e}", tmp_dir.display()))?;
        let tmp = tmp_dir.join(format!("{}-{}", std::process::id(), rand::random::<u64>()));
        let result = (|| {
            let mut file = std::fs::File::create(&tmp)
                .map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
            let mut hasher = Sha256::new();
            let mut head = Vec::new();
            let mut size = 0i64;
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                let n = reader.read(&mut buf).map_err(|e| e.to_string())?;
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
                    .map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
                size += n as i64;
            }
            file.sync_all().map_err(|e| e.to_string())?;
            let rel = hashed_path(&hex(&hasher.finalize()), file_name);
            let target = self.root.join(&rel);
            if !target.exists() {
                let dir = target
                    .parent()
                    .ok_or_else(|| "invalid storage path".to_string())?;
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                std::fs::rename(&tmp, &target)
                    .map_err(|e| format!("cannot store {}: {e}", target.display()))?;
                note_created(&rel);
            }
            Ok(Stored {
                path: rel,
                size,
                head,
            })
        })();
        let _ = std::fs::remove_file(&tmp);
        result
    }

    fn uri(&self, path: &str) -> String {
        format!("{}/{}", self.uri_prefix, path.trim_start_matches('/'))
    }

    fn read(&self, path: &str) -> Option<Vec<u8>> {
        std::fs::read(self.root.join(safe_relative(path)?)).ok()
    }
}

tokio::task_local! {
    /// The files a request stored for the first time (see [`tracking`]).
    static CREATED: std::cell::RefCell<Vec<String>>;
}

/// Runs `f` (a request) noting the files it stores for the first time: a request that fails
/// removes them again (what no committed version references).
pub async fn tracking<F: std::future::Future>(f: F) -> (F::Output, Vec<String>) {
    CREATED
        .scope(std::cell::RefCell::new(Vec::new()), async {
            let out = f.await;
            (out, CREATED.with(|c| c.take()))
        })
        .await
}

/// Removes the files of `paths` that no stored field value references (the files of a
/// request that failed, or whose transaction rolled back).
pub async fn remove_unreferenced(
    db: &impl sea_orm::ConnectionTrait,
    store: &dyn FileStore,
    paths: &[String],
) {
    for path in paths {
        let pattern = format!(
            "%{}%",
            path.replace('\\', "\\\\")
                .replace('%', "\\%")
                .replace('_', "\\_")
        );
        let referenced = db
            .query_one_raw(cairn_store::sql::stmt(
                db.get_database_backend(),
                "SELECT 1 FROM content_fields WHERE value LIKE ? ESCAPE '\\'",
                [pattern.into()],
            ))
            .await;
        match referenced {
            Ok(None) => store.remove(path),
            Ok(Some(_)) => {}
            Err(e) => {
                tracing::warn!(error = %e, %path, "cannot tell whether an upload is used; kept")
            }
        }
    }
}

/// Notes a file stored for the first time by the current request.
pub fn note_created(path: &str) {
    let _ = CREATED.try_with(|c| c.borrow_mut().push(path.to_string()));
}

/// Files in memory (tests), served from `uri_prefix`.
pub struct MemoryFiles {
    pub uri_prefix: String,
    files: Mutex<HashMap<String, Vec<u8>>>,
}

impl MemoryFiles {
    pub fn new(uri_prefix: impl Into<String>) -> MemoryFiles {
        MemoryFiles {
            uri_prefix: uri_prefix.into().trim_end_matches('/').to_string(),
            files: Mutex::new(HashMap::new()),
        }
    }

    /// How many distinct files are stored.
    pub fn len(&self) -> usize {
        self.files.lock().map(|f| f.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for MemoryFiles {
    fn default() -> MemoryFiles {
        MemoryFiles::new("/var/storage")
    }
}

impl FileStore for MemoryFiles {
    fn put(&self, data: &[u8], file_name: &str) -> Result<String, String> {
        let rel = content_path(data, file_name);
        let mut files = self.files.lock().map_err(|_| "file store poisoned")?;
        if !files.contains_key(&rel) {
            files.insert(rel.clone(), data.to_vec());
            note_created(&rel);
        }
        Ok(rel)
    }

    fn remove(&self, path: &str) {
        if let Ok(mut files) = self.files.lock() {
            files.remove(path.trim_start_matches('/'));
        }
    }

    fn uri(&self, path: &str) -> String {
        format!("{}/{}", self.uri_prefix, path.trim_start_matches('/'))
    }

    fn read(&self, path: &str) -> Option<Vec<u8>> {
        let files = self.files.lock().ok()?;
        files.get(path.trim_start_matches('/')).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_sanitized() {
        assert_eq!(sanitize_file_name("../../etc/pass wd.txt"), "pass_wd.txt");
        assert_eq!(sanitize_file_name("C:\\x\\été.png"), "_t_.png");
        assert_eq!(sanitize_file_name("..."), "file");
        assert_eq!(sanitize_file_name(""), "file");
    }

    #[test]
    fn memory_files_are_content_addressed() {
        let m = MemoryFiles::default();
        let a = m.put(b"hello", "a.txt").unwrap();
        let b = m.put(b"hello", "a.txt").unwrap();
        assert_eq!(a, b);
        assert_eq!(m.len(), 1);
        assert!(a.starts_with("2c/f2/2cf24dba"));
        assert!(a.ends_with("/a.txt"));
        assert_eq!(m.uri(&a), format!("/var/storage/{a}"));
        assert_eq!(m.read(&a).as_deref(), Some(&b"hello"[..]));
        assert_eq!(m.read("nope"), None);
    }

    #[test]
    fn disk_files_write_and_read() {
        let dir = tempfile::tempdir().unwrap();
        let d = DiskFiles::new(dir.path(), "/var/storage/");
        let p = d.put(b"data", "f.bin").unwrap();
        assert_eq!(d.put(b"data", "f.bin").unwrap(), p);
        assert_eq!(d.read(&p).as_deref(), Some(&b"data"[..]));
        assert_eq!(d.read("../../etc/passwd"), None);
        assert_eq!(d.uri(&p), format!("/var/storage/{p}"));
        let leftovers: Vec<_> = std::fs::read_dir(dir.path().join(&p).parent().unwrap())
            .unwrap()
            .collect();
        assert_eq!(leftovers.len(), 1);
    }
}
