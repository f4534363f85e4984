//! A VFS over SQLite's own (`unix`) that writes a commit's WAL frames with one `pwrite`.
//!
//! SQLite writes each WAL frame as two writes, its 24-byte header and its page: 60 system
//! calls for a commit of 30 pages, each taking the kernel's per-call and per-page costs
//! (`crates/bench/README.md`, "Writes measured again"). Here the writes that extend a WAL
//! file are gathered in memory and written at once when the commit frame (a frame header
//! whose "database size" field is set) has its page, that is before the commit publishes
//! the frames in the WAL index; and before any other use of the file (a read, a sync, a
//! truncation, a lock, a write elsewhere, a close), so that SQLite never finds the file
//! other than it wrote it. Frames of a commit are not visible to any reader until the commit
//! frame is, so gathering them changes nothing that can be seen, after a crash included
//! (recovery reads the WAL up to the last valid commit frame, as before).
//!
//! Database files and everything else go to the `unix` VFS untouched.
//!
//! Unsafe code (the workspace's second exception): SQLite's VFS is a C interface. SAFETY, for
//! every function here: SQLite calls them with a file it opened through [`open`] (whose
//! structure is the base's file followed by [`Gathered`], as `szOsFile` declares), from one
//! thread at a time per file, and the pointers it passes are valid for the lengths it gives.
#![allow(unsafe_code)]

use rusqlite::ffi;
use std::ffi::{CStr, c_int, c_void};
use std::sync::OnceLock;

/// The name connections open with.
const NAME: &CStr = c"cairn-gather";

thread_local! {
    /// Writes this thread passed to the base's WAL files.
    static WRITES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many writes this thread gave the WAL files so far (statements run on the thread that
/// calls them).
#[cfg(test)]
pub(super) fn writes() -> u64 {
    WRITES.get()
}

/// The most the base's `xWrite` takes at once (it keeps 17 bits of the length: SQLite itself
/// never writes more than a page), so the most a WAL file gathers: 30 frames of 4 KiB pages.
const MAX_WRITE: usize = 0x1ffff;

/// A frame header's size, and where its commit field ("database size after commit") lies.
const FRAME_HEADER: usize = 24;
const COMMIT_FIELD: std::ops::Range<usize> = 4..8;

/// Registers the VFS once (not as the default); its name, or SQLite's error code.
pub(super) fn register() -> Result<&'static CStr, c_int> {
    static DONE: OnceLock<c_int> = OnceLock::new();
    let rc = *DONE.get_or_init(|| unsafe { install() });
    match rc {
        ffi::SQLITE_OK => Ok(NAME),
        rc => Err(rc),
    }
}

/// The `unix` VFS, and where this VFS's part of a file lies.
struct Base {
    vfs: *mut ffi::sqlite3_vfs,
    /// Offset of [`Gathered`] in our file structure: after the base's, aligned.
    extra: usize,
}

// SAFETY: the base VFS is a static of SQLite's, used from any thread as SQLite's own API is.
unsafe impl Send for Base {}
unsafe impl Sync for Base {}

static BASE: OnceLock<Base> = OnceLock::new();
static WAL_METHODS: OnceLock<IoMethods> = OnceLock::new();

struct IoMethods(ffi::sqlite3_io_methods);
// SAFETY: a table of function pointers, never written after it is built.
unsafe impl Send for IoMethods {}
unsafe impl Sync for IoMethods {}

/// What a WAL file of this VFS keeps besides the base file (which comes first, so the base's
/// methods are called with the same pointer).
struct Gathered {
    /// The base file's methods.
    base: *const ffi::sqlite3_io_methods,
    /// Bytes not written yet, which belong at `at` in the file.
    bytes: Vec<u8>,
    at: i64,
    /// The last write was a commit frame's header: its page ends the commit.
    commit_header: bool,
}

unsafe fn install() -> c_int {
    unsafe {
        let base = ffi::sqlite3_vfs_find(c"unix".as_ptr());
        if base.is_null() {
            return ffi::SQLITE_ERROR;
        }
        let align = std::mem::align_of::<Gathered>();
        let extra = ((*base).szOsFile as usize).div_ceil(align) * align;
        let _ = BASE.set(Base { vfs: base, extra });
        let mut vfs: ffi::sqlite3_vfs = std::ptr::read(base);
        vfs.szOsFile = (extra + std::mem::size_of::<Gathered>()) as c_int;
        vfs.pNext = std::ptr::null_mut();
        vfs.zName = NAME.as_ptr();
        vfs.xOpen = Some(open);
        // SQLite keeps the pointer for the life of the process.
        ffi::sqlite3_vfs_register(Box::into_raw(Box::new(vfs)), 0)
    }
}

fn base() -> &'static Base {
    BASE.get()
        .expect("the VFS is registered before any file is opened")
}

unsafe fn gathered<'a>(f: *mut ffi::sqlite3_file) -> &'a mut Gathered {
    unsafe { &mut *(f.cast::<u8>().add(base().extra).cast::<Gathered>()) }
}

unsafe extern "C" fn open(
    _vfs: *mut ffi::sqlite3_vfs,
    name: ffi::sqlite3_filename,
    f: *mut ffi::sqlite3_file,
    flags: c_int,
    out_flags: *mut c_int,
) -> c_int {
    unsafe {
        let b = base();
        let open = (*b.vfs).xOpen.expect("the unix VFS opens files");
        let rc = open(b.vfs, name, f, flags, out_flags);
        if rc != ffi::SQLITE_OK || flags & ffi::SQLITE_OPEN_WAL == 0 || (*f).pMethods.is_null() {
            return rc;
        }
        let methods = WAL_METHODS.get_or_init(|| IoMethods(wal_methods(&*(*f).pMethods)));
        std::ptr::write(
            f.cast::<u8>().add(b.extra).cast::<Gathered>(),
            Gathered {
                base: (*f).pMethods,
                bytes: Vec::new(),
                at: 0,
                commit_header: false,
            },
        );
        (*f).pMethods = &methods.0;
        rc
    }
}

/// The base's methods with the WAL's own in front of those that use the file's bytes or
/// state: each writes what is gathered first. The file's properties and the shared-memory
/// methods (which SQLite calls on database files only) are the base's, called with the same
/// pointer.
fn wal_methods(base: &ffi::sqlite3_io_methods) -> ffi::sqlite3_io_methods {
    ffi::sqlite3_io_methods {
        iVersion: base.iVersion,
        xClose: Some(close),
        xRead: Some(read),
        xWrite: Some(write),
        xTruncate: Some(truncate),
        xSync: Some(sync),
        xFileSize: Some(file_size),
        xLock: Some(lock),
        xUnlock: Some(unlock),
        xCheckReservedLock: Some(check_reserved_lock),
        xFileControl: Some(file_control),
        xFetch: base.xFetch.map(|_| fetch as _),
        xUnfetch: base.xUnfetch.map(|_| unfetch as _),
        ..*base
    }
}

/// One call of the base's `xWrite` (counted).
unsafe fn base_write(
    f: *mut ffi::sqlite3_file,
    g: &Gathered,
    data: *const c_void,
    amount: c_int,
    offset: i64,
) -> c_int {
    WRITES.set(WRITES.get() + 1);
    unsafe { ((*g.base).xWrite.expect("files are written"))(f, data, amount, offset) }
}

/// Writes what `g` (of `f`) gathered with one call of the base's `xWrite`.
unsafe fn flush(f: *mut ffi::sqlite3_file, g: &mut Gathered) -> c_int {
    if g.bytes.is_empty() {
        return ffi::SQLITE_OK;
    }
    let rc = unsafe { base_write(f, g, g.bytes.as_ptr().cast(), g.bytes.len() as c_int, g.at) };
    g.bytes.clear();
    rc
}

/// The base's method `$m` of `f`, once what is gathered is written.
macro_rules! then_base {
    ($f:expr, $m:ident $(, $arg:expr)*) => {{
        let g = gathered($f);
        let rc = flush($f, g);
        if rc != ffi::SQLITE_OK {
            return rc;
        }
        ((*g.base).$m.expect(stringify!($m)))($f $(, $arg)*)
    }};
}

unsafe extern "C" fn write(
    f: *mut ffi::sqlite3_file,
    data: *const c_void,
    amount: c_int,
    offset: i64,
) -> c_int {
    unsafe {
        let g = gathered(f);
        let len = amount.max(0) as usize;
        if len == 0 {
            return base_write(f, g, data, amount, offset);
        }
        let bytes = std::slice::from_raw_parts(data.cast::<u8>(), len);
        // The write after a commit frame's header is its page: the commit's last write.
        let ends_commit = g.commit_header;
        let commit_header = len == FRAME_HEADER && bytes[COMMIT_FIELD].iter().any(|&b| b != 0);
        let end = g.at + g.bytes.len() as i64;
        if !g.bytes.is_empty() && (offset != end || g.bytes.len() + len > MAX_WRITE) {
            let rc = flush(f, g);
            if rc != ffi::SQLITE_OK {
                return rc;
            }
        }
        if len <= MAX_WRITE {
            if g.bytes.is_empty() {
                g.at = offset;
            }
            g.bytes.extend_from_slice(bytes);
        } else {
            let rc = base_write(f, g, data, amount, offset);
            if rc != ffi::SQLITE_OK {
                return rc;
            }
        }
        g.commit_header = commit_header;
        match ends_commit {
            true => flush(f, g),
            false => ffi::SQLITE_OK,
        }
    }
}

unsafe extern "C" fn close(f: *mut ffi::sqlite3_file) -> c_int {
    unsafe {
        let g = gathered(f);
        let rc = flush(f, g);
        let base = g.base;
        std::ptr::drop_in_place(g);
        let closed = ((*base).xClose.expect("files are closed"))(f);
        if rc != ffi::SQLITE_OK { rc } else { closed }
    }
}

unsafe extern "C" fn read(f: *mut ffi::sqlite3_file, out: *mut c_void, n: c_int, at: i64) -> c_int {
    unsafe { then_base!(f, xRead, out, n, at) }
}

unsafe extern "C" fn truncate(f: *mut ffi::sqlite3_file, size: i64) -> c_int {
    unsafe { then_base!(f, xTruncate, size) }
}

unsafe extern "C" fn sync(f: *mut ffi::sqlite3_file, flags: c_int) -> c_int {
    unsafe { then_base!(f, xSync, flags) }
}

unsafe extern "C" fn file_size(f: *mut ffi::sqlite3_file, size: *mut i64) -> c_int {
    unsafe { then_base!(f, xFileSize, size) }
}

unsafe extern "C" fn lock(f: *mut ffi::sqlite3_file, level: c_int) -> c_int {
    unsafe { then_base!(f, xLock, level) }
}

unsafe extern "C" fn unlock(f: *mut ffi::sqlite3_file, level: c_int) -> c_int {
    unsafe { then_base!(f, xUnlock, level) }
}

unsafe extern "C" fn check_reserved_lock(f: *mut ffi::sqlite3_file, out: *mut c_int) -> c_int {
    unsafe { then_base!(f, xCheckReservedLock, out) }
}

unsafe extern "C" fn file_control(f: *mut ffi::sqlite3_file, op: c_int, arg: *mut c_void) -> c_int {
    unsafe { then_base!(f, xFileControl, op, arg) }
}

unsafe extern "C" fn fetch(
    f: *mut ffi::sqlite3_file,
    at: i64,
    n: c_int,
    out: *mut *mut c_void,
) -> c_int {
    unsafe { then_base!(f, xFetch, at, n, out) }
}

unsafe extern "C" fn unfetch(f: *mut ffi::sqlite3_file, at: i64, p: *mut c_void) -> c_int {
    unsafe { then_base!(f, xUnfetch, at, p) }
}
