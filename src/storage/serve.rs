//! Downloads: `GET` and `HEAD` of a stored file under `/var/storage/…`, the same for every
//! backend. The body is streamed from the backend with its `Content-Length` (a small one is
//! read whole and sent with the headers in one write: a body streamed after them waited 40 ms
//! for a client that delays its acknowledgements, Nagle's algorithm holding it back); the `ETag` is
//! the content hash the path holds (strong, the same on every instance); `Last-Modified`,
//! conditional requests (304) and single byte ranges (206, 416) as RFC 9110 has them. Every
//! answer carries the headers that keep a browser from running an upload in the API's origin.

use super::{key, on_io};
use futures_util::TryStreamExt;
use object_store::{GetOptions, GetRange, ObjectStore};
use poem::http::{HeaderValue, Method, StatusCode, header};
use poem::{Body, Endpoint, Request, Response};
use std::sync::Arc;

/// The endpoint serving the files of `store` (mounted under the storage URI prefix).
pub fn endpoint(store: Arc<dyn ObjectStore>) -> impl Endpoint<Output = Response> {
    poem::endpoint::make(move |req: Request| {
        let store = store.clone();
        async move { Ok::<_, poem::Error>(safe_headers(serve(store, &req).await)) }
    })
}

async fn serve(store: Arc<dyn ObjectStore>, req: &Request) -> Response {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return Response::builder()
            .status(StatusCode::METHOD_NOT_ALLOWED)
            .header(header::ALLOW, "GET, HEAD")
            .finish();
    }
    let path = req.uri().path().trim_start_matches('/');
    let decoded = percent_encoding::percent_decode_str(path).decode_utf8();
    let Some(key) = decoded.ok().as_deref().and_then(key) else {
        return status(StatusCode::NOT_FOUND);
    };
    let etag = content_etag(key.as_ref());
    let header_of = |name| req.headers().get(name).and_then(|v| v.to_str().ok());
    // A client that holds these bytes already: content-addressed paths never change.
    if let (Some(tags), Some(etag)) = (header_of(header::IF_NONE_MATCH), &etag)
        && matches_etag(tags, etag)
    {
        let (store, k) = (store.clone(), key.clone());
        return match on_io(async move { store.head(&k).await }).await {
            Ok(meta) => not_modified(etag, meta.last_modified),
            Err(e) => failed(e),
        };
    }
    let mut range = header_of(header::RANGE).and_then(byte_range);
    if let (Some(if_range), Some(etag)) = (header_of(header::IF_RANGE), &etag)
        && if_range.trim() != etag
    {
        range = None;
    }
    let options = GetOptions {
        range: range.clone(),
        head: req.method() == Method::HEAD,
        ..Default::default()
    };
    let (s, k) = (store.clone(), key.clone());
    let got = match on_io(async move { s.get_opts(&k, options).await }).await {
        Ok(got) => got,
        Err(object_store::Error::NotFound { .. }) => return status(StatusCode::NOT_FOUND),
        Err(e) if range.is_some() => {
            // A range past the end of the file.
            let k = key.clone();
            return match on_io(async move { store.head(&k).await }).await {
                Ok(meta) => Response::builder()
                    .status(StatusCode::RANGE_NOT_SATISFIABLE)
                    .header(header::CONTENT_RANGE, format!("bytes */{}", meta.size))
                    .finish(),
                Err(_) => failed(e),
            };
        }
        Err(e) => return failed(e),
    };
    let meta = got.meta.clone();
    let etag = etag.or_else(|| {
        meta.e_tag
            .as_ref()
            .map(|t| format!("\"{}\"", t.trim_matches('"')))
    });
    if etag.is_none()
        && let Some(since) = header_of(header::IF_MODIFIED_SINCE).and_then(http_date)
        && meta.last_modified.timestamp() <= since.timestamp()
    {
        return not_modified("", meta.last_modified);
    }
    let shown = got.range.clone();
    let partial = range.is_some() && (shown.start > 0 || shown.end < meta.size);
    let mut resp = Response::builder()
        .status(if partial {
            StatusCode::PARTIAL_CONTENT
        } else {
            StatusCode::OK
        })
        .header(header::CONTENT_TYPE, content_type(key.as_ref()))
        .header(header::CONTENT_LENGTH, shown.end - shown.start)
        .header(header::ACCEPT_RANGES, "bytes")
        .header(header::LAST_MODIFIED, http_date_of(meta.last_modified))
        .header(header::CACHE_CONTROL, "public, max-age=31536000, immutable");
    if let Some(etag) = &etag {
        resp = resp.header(header::ETAG, etag.as_str());
    }
    if partial {
        resp = resp.header(
            header::CONTENT_RANGE,
            format!("bytes {}-{}/{}", shown.start, shown.end - 1, meta.size),
        );
    }
    if req.method() == Method::HEAD {
        return resp.finish();
    }
    if shown.end - shown.start <= WHOLE {
        return match got.bytes().await {
            Ok(bytes) => resp.body(bytes),
            Err(e) => failed(e),
        };
    }
    let stream = got.into_stream().map_err(std::io::Error::other);
    resp.body(Body::from_bytes_stream(stream))
}

/// The largest body read whole before it is sent (thumbnails, icons, most documents).
const WHOLE: u64 = 256 * 1024;

/// The strong ETag of a content-addressed key (`ab/cd/<sha256>/<name>`): its hash; of a
/// derived one (an image variation), its original's hash and the digest of its derivation.
fn content_etag(key: &str) -> Option<String> {
    let is_hash = |h: &str| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit());
    if let Some((hash, digest)) = super::paths::derived_from(key) {
        return is_hash(hash).then(|| format!("\"{hash}-{digest}\""));
    }
    let hash = key.split('/').nth(2)?;
    is_hash(hash).then(|| format!("\"{hash}\""))
}

/// `If-None-Match` holds `etag` (weakly compared, as RFC 9110 has it for this header), or `*`.
fn matches_etag(tags: &str, etag: &str) -> bool {
    tags.split(',')
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == "*" || t == etag)
}

/// One range of `Range: bytes=…`; anything else (several ranges, another unit, malformed)
/// is ignored and the whole file served, as RFC 9110 allows.
fn byte_range(header: &str) -> Option<GetRange> {
    let spec = header.trim().strip_prefix("bytes=")?;
    if spec.contains(',') {
        return None;
    }
    let (start, end) = spec.split_once('-')?;
    let (start, end) = (start.trim(), end.trim());
    match (start.parse::<u64>().ok(), end.parse::<u64>().ok()) {
        (Some(s), Some(e)) if s <= e => Some(GetRange::Bounded(s..e.saturating_add(1))),
        (Some(s), None) if end.is_empty() => Some(GetRange::Offset(s)),
        (None, Some(n)) if start.is_empty() && n > 0 => Some(GetRange::Suffix(n)),
        _ => None,
    }
}

fn content_type(key: &str) -> String {
    mime_guess::from_path(key)
        .first_or_octet_stream()
        .essence_str()
        .to_string()
}

fn http_date_of(t: chrono::DateTime<chrono::Utc>) -> String {
    t.format("%a, %d %b %Y %H:%M:%S GMT").to_string()
}

fn http_date(s: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    chrono::DateTime::parse_from_rfc2822(&s.replace("GMT", "+0000"))
        .ok()
        .map(|t| t.to_utc())
}

fn not_modified(etag: &str, modified: chrono::DateTime<chrono::Utc>) -> Response {
    let mut resp = Response::builder()
        .status(StatusCode::NOT_MODIFIED)
        .header(header::LAST_MODIFIED, http_date_of(modified))
        .header(header::CACHE_CONTROL, "public, max-age=31536000, immutable");
    if !etag.is_empty() {
        resp = resp.header(header::ETAG, etag);
    }
    resp.finish()
}

fn status(code: StatusCode) -> Response {
    Response::builder().status(code).finish()
}

/// The backend failed: logged, answered 503 (the file may well exist).
fn failed(e: object_store::Error) -> Response {
    tracing::error!(error = %e, "the storage could not serve a file");
    status(StatusCode::SERVICE_UNAVAILABLE)
}

/// Uploaded files come from anyone who may write content: a browser must never run them in
/// the API's origin. No type sniffing, a sandbox, and a download unless the type is an
/// image, audio or video type browsers show safely (not SVG, which holds scripts).
fn safe_headers(mut r: Response) -> Response {
    let shown_inline = r
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|t| {
            t.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .is_some_and(|t| {
            (t.starts_with("image/") || t.starts_with("audio/") || t.starts_with("video/"))
                && !t.contains("svg")
        });
    let h = r.headers_mut();
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        "content-security-policy",
        HeaderValue::from_static("sandbox; default-src 'none'"),
    );
    if !shown_inline {
        h.insert(
            header::CONTENT_DISPOSITION,
            HeaderValue::from_static("attachment"),
        );
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_read_as_rfc_9110_has_them() {
        assert_eq!(byte_range("bytes=0-9"), Some(GetRange::Bounded(0..10)));
        assert_eq!(byte_range("bytes=5-"), Some(GetRange::Offset(5)));
        assert_eq!(byte_range("bytes=-3"), Some(GetRange::Suffix(3)));
        for ignored in [
            "bytes=0-1,4-5",
            "items=0-1",
            "bytes=9-2",
            "bytes=-0",
            "bytes=x-",
        ] {
            assert_eq!(byte_range(ignored), None, "{ignored}");
        }
    }

    #[test]
    fn etags_come_from_the_content_hash() {
        let hash = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";
        assert_eq!(
            content_etag(&format!("2c/f2/{hash}/a.txt")),
            Some(format!("\"{hash}\""))
        );
        assert_eq!(content_etag("a/b/c/d"), None);
        assert_eq!(
            content_etag(&format!("_aliases/small/0a1b/2c/f2/{hash}/a.png")),
            Some(format!("\"{hash}-0a1b\""))
        );
        assert!(matches_etag(
            &format!("W/\"x\", \"{hash}\""),
            &format!("\"{hash}\"")
        ));
        assert!(!matches_etag("\"x\"", "\"y\""));
    }

    #[test]
    fn dates_round_trip() {
        let t = chrono::DateTime::from_timestamp(1_700_000_000, 0).unwrap();
        assert_eq!(http_date_of(t), "Tue, 14 Nov 2023 22:13:20 GMT");
        assert_eq!(http_date(&http_date_of(t)), Some(t));
    }
}
