//! The reply of an operation: built by the generated handler ([`Reply`]), rendered once
//! ([`Rendered`]: status, headers, body), and answered to each request it serves, the one it
//! was rendered for or, from the response cache, the next ones ([`Rendered::respond`]).

use crate::http::{ETag, Encode, Rq, encode_document};
use bytes::Bytes;
use poem::Response;
use poem::http::{HeaderName, HeaderValue, Method, StatusCode, header};

/// A success response under construction.
pub struct Reply<'r> {
    rq: &'r Rq,
    status: StatusCode,
    body: Option<(Bytes, String)>,
    etag: Option<ETag>,
    headers: Vec<(HeaderName, String)>,
}

impl<'r> Reply<'r> {
    pub(crate) fn new(rq: &'r Rq, status: u16) -> Reply<'r> {
        Reply {
            rq,
            status: StatusCode::from_u16(status).unwrap_or(StatusCode::OK),
            body: None,
            etag: None,
            headers: Vec::new(),
        }
    }

    /// Writes the body in the negotiated format.
    pub fn body<T: Encode + ?Sized>(mut self, value: &T) -> Self {
        let format = self.rq.neg.format;
        let bytes = encode_document(value, format, self.rq.wire());
        self.body = Some((
            bytes.into(),
            self.rq.wire().media_type(value.media(), format),
        ));
        self
    }

    pub fn etag(mut self, etag: ETag) -> Self {
        self.etag = Some(etag);
        self
    }

    /// `Location: <prefix><path>`.
    pub fn location(mut self, path: &str) -> Self {
        self.headers
            .push((header::LOCATION, format!("{}{path}", self.rq.wire().prefix)));
        self
    }

    pub fn accept_patch(mut self, input: &str) -> Self {
        let v = self.rq.wire().media_type(input, self.rq.neg.format);
        self.headers
            .push((HeaderName::from_static("accept-patch"), v));
        self
    }

    pub fn header(mut self, name: &'static str, value: String) -> Self {
        self.headers.push((HeaderName::from_static(name), value));
        self
    }

    /// The reply as it is answered (and may be kept).
    pub fn render(self) -> Rendered {
        let mut headers: Vec<(HeaderName, HeaderValue)> = (self.headers.into_iter())
            .filter_map(|(k, v)| Some((k, HeaderValue::from_str(&v).ok()?)))
            .collect();
        let body = match self.body {
            Some((bytes, media)) => {
                if let Ok(v) = HeaderValue::from_str(&media) {
                    headers.push((header::CONTENT_TYPE, v));
                }
                bytes
            }
            None => Bytes::new(),
        };
        Rendered {
            status: self.status,
            etag: self.etag,
            headers,
            body,
        }
    }

    /// The response; 304 when `If-None-Match` names the ETag.
    pub fn finish(self) -> Response {
        let rq = self.rq;
        self.render().respond(rq)
    }
}

/// A rendered success response.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub status: StatusCode,
    pub etag: Option<ETag>,
    pub headers: Vec<(HeaderName, HeaderValue)>,
    pub body: Bytes,
}

impl Rendered {
    /// The response to `rq`: 304 when it is a GET or HEAD whose `If-None-Match` names the
    /// ETag.
    pub fn respond(&self, rq: &Rq) -> Response {
        let mut b = Response::builder().status(self.status);
        if let Some(etag) = &self.etag {
            b = b.header(header::ETAG, etag.as_str());
            let method = rq.http.method();
            if (method == Method::GET || method == Method::HEAD)
                && (rq.http.headers().get(header::IF_NONE_MATCH))
                    .and_then(|v| v.to_str().ok())
                    .is_some_and(|v| v.split(',').any(|t| etag.matches(t)))
            {
                return b.status(StatusCode::NOT_MODIFIED).finish();
            }
        }
        for (k, v) in &self.headers {
            b = b.header(k.clone(), v.clone());
        }
        if self.body.is_empty() && !self.headers.iter().any(|(k, _)| k == header::CONTENT_TYPE) {
            return b.header(header::CONTENT_LENGTH, "0").finish();
        }
        b.body(self.body.clone())
    }

    /// The bytes it holds, as a cache weighs it.
    pub fn size(&self) -> usize {
        self.body.len()
            + (self.headers.iter())
                .map(|(k, v)| k.as_str().len() + v.len())
                .sum::<usize>()
            + 64
    }
}
