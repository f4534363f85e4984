//! The interface uploaded files are stored through: field types read and write their files
//! through a `&dyn FileStore` (the `Storage` of this module's parent, or a test's), and this
//! layer knows nothing of field types.

/// How many leading bytes of a stored file [`Stored::head`] keeps.
pub const HEAD_BYTES: usize = 256 * 1024;

/// A file just stored, or found in the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub path: String,
    pub size: i64,
    /// The first [`HEAD_BYTES`] bytes.
    pub head: Vec<u8>,
    /// Whether this call stored the file for the first time (the store did not hold these
    /// bytes under this name before): a write that fails takes such a file away again.
    pub created: bool,
}

/// Keeps uploaded files outside the database, content-addressed
/// ([`content_path`](super::content_path)).
pub trait FileStore: Send + Sync {
    /// Stores what `reader` yields under a path derived from its content and `file_name`,
    /// without holding it all in memory; returns the path (relative, without a leading
    /// slash), the size, the first bytes (for sniffing the type) and whether the file is new.
    /// Storing the same bytes twice is one file.
    fn put_reader(
        &self,
        reader: &mut dyn std::io::Read,
        file_name: &str,
    ) -> Result<Stored, PutError>;
    /// Removes the file at `path` (nothing when there is none).
    fn remove(&self, path: &str);
    /// The URI a client downloads a stored path from (`/var/storage/<path>`).
    fn uri(&self, path: &str) -> String;
    /// The whole file at `path`, `None` when the store does not hold it (image types decode
    /// it to check it).
    fn read(&self, path: &str) -> Result<Option<Vec<u8>>, String>;
    /// The size and first bytes of a stored path, `None` when the store does not hold it;
    /// an error when the store does not answer. Binary types use it to accept
    /// `{"inputUri": …}` / `{"id": …}` inputs that name an already stored file.
    fn stored(&self, path: &str) -> Result<Option<Stored>, String>;
}

/// Why a file was not stored: its input could not be read (bad base64: the client's), or
/// the store failed (the server's: answered 503).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PutError {
    Input(String),
    Store(String),
}
