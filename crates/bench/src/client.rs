//! A minimal HTTP/1.1 client: one persistent keep-alive connection, requests rendered once to
//! bytes, responses framed by `Content-Length`. Just enough for the load generator and the
//! setup steps, and cheap enough that the load generator stays out of the way.

use anyhow::{Context, Result, bail};
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// An HTTP request; `wire` renders it to the bytes sent on every repetition.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn new(method: &str, path: &str) -> Self {
        Request {
            method: method.to_string(),
            path: path.to_string(),
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    pub fn body(mut self, body: impl Into<Vec<u8>>) -> Self {
        self.body = body.into();
        self
    }

    /// The request as bytes on the wire, for a server at `host`.
    pub fn wire(&self, host: SocketAddr) -> Vec<u8> {
        let mut head = format!("{} {} HTTP/1.1\r\nHost: {host}\r\n", self.method, self.path);
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        if !self.body.is_empty() || matches!(self.method.as_str(), "POST" | "PUT" | "PATCH") {
            head.push_str(&format!("Content-Length: {}\r\n", self.body.len()));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(&self.body);
        bytes
    }
}

/// A response read in full.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// The first header called `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// 2xx or 3xx: what the load generator counts as a success.
    pub fn is_success(&self) -> bool {
        is_success(self.status)
    }

    pub fn json(&self) -> Result<serde_json::Value> {
        serde_json::from_slice(&self.body).context("the response body is not JSON")
    }

    /// The start of the body as text, for error messages.
    pub fn excerpt(&self) -> String {
        let text = String::from_utf8_lossy(&self.body);
        text.chars().take(300).collect()
    }
}

/// 2xx or 3xx.
pub fn is_success(status: u16) -> bool {
    (200..400).contains(&status)
}

/// What the framing of a response head says.
struct Head {
    status: u16,
    len: usize,
    body_len: usize,
    close: bool,
    headers: Vec<(String, String)>,
}

/// One persistent HTTP/1.1 connection.
pub struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
    closed: bool,
}

impl Conn {
    pub async fn connect(addr: SocketAddr) -> Result<Conn> {
        let stream = TcpStream::connect(addr)
            .await
            .with_context(|| format!("cannot connect to {addr}"))?;
        stream.set_nodelay(true)?;
        Ok(Conn {
            stream,
            buf: Vec::with_capacity(16 * 1024),
            closed: false,
        })
    }

    /// Whether the server announced it closes this connection after its last response.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Sends `req` and reads the whole response.
    pub async fn send(&mut self, req: &Request) -> Result<Response> {
        let wire = req.wire(self.stream.peer_addr()?);
        let (head, body) = self.exchange(&wire, true).await?;
        Ok(Response {
            status: head.status,
            headers: head.headers,
            body,
        })
    }

    /// Sends prepared request bytes and reads the response, keeping only its status.
    pub async fn send_wire(&mut self, wire: &[u8]) -> Result<u16> {
        Ok(self.exchange(wire, false).await?.0.status)
    }

    async fn exchange(&mut self, wire: &[u8], keep: bool) -> Result<(Head, Vec<u8>)> {
        if self.closed {
            bail!("the server closed this connection");
        }
        self.stream.write_all(wire).await?;
        let head_request = wire.starts_with(b"HEAD ");
        let head = loop {
            if let Some(head) = parse_head(&self.buf, head_request, keep)? {
                break head;
            }
            self.fill().await?;
        };
        let end = head.len + head.body_len;
        while self.buf.len() < end {
            self.fill().await?;
        }
        let body = if keep {
            self.buf[head.len..end].to_vec()
        } else {
            Vec::new()
        };
        self.buf.drain(..end);
        self.closed = head.close;
        Ok((head, body))
    }

    /// Reads more bytes into the buffer; the end of the stream is an error.
    async fn fill(&mut self) -> Result<()> {
        if self.buf.capacity() - self.buf.len() < 4096 {
            self.buf.reserve(16 * 1024);
        }
        if self.stream.read_buf(&mut self.buf).await? == 0 {
            self.closed = true;
            bail!("the server closed the connection");
        }
        Ok(())
    }
}

/// Parses a response head from `buf`; `None` while it is incomplete.
fn parse_head(buf: &[u8], head_request: bool, keep: bool) -> Result<Option<Head>> {
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut resp = httparse::Response::new(&mut headers);
    let len = match resp.parse(buf).context("malformed HTTP response")? {
        httparse::Status::Complete(len) => len,
        httparse::Status::Partial => return Ok(None),
    };
    let status = resp.code.unwrap_or(0);
    let mut content_length = None;
    let mut close = false;
    let mut kept = Vec::new();
    for h in resp.headers.iter() {
        if h.name.eq_ignore_ascii_case("content-length") {
            let text = std::str::from_utf8(h.value).unwrap_or("");
            content_length = Some(text.trim().parse::<usize>().context("bad Content-Length")?);
        } else if h.name.eq_ignore_ascii_case("transfer-encoding") {
            bail!("chunked responses are not supported by the bench client");
        } else if h.name.eq_ignore_ascii_case("connection") {
            close = h.value.eq_ignore_ascii_case(b"close");
        }
        if keep {
            kept.push((
                h.name.to_string(),
                String::from_utf8_lossy(h.value).into_owned(),
            ));
        }
    }
    let body_len = match content_length {
        _ if head_request || status == 204 || status == 304 || status < 200 => 0,
        Some(n) => n,
        None => bail!("a {status} response without Content-Length"),
    };
    Ok(Some(Head {
        status,
        len,
        body_len,
        close,
        headers: kept,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_a_request() {
        let req = Request::new("POST", "/x")
            .header("Accept", "a/b")
            .body("{}");
        let host: SocketAddr = "127.0.0.1:80".parse().unwrap();
        assert_eq!(
            String::from_utf8(req.wire(host)).unwrap(),
            "POST /x HTTP/1.1\r\nHost: 127.0.0.1:80\r\nAccept: a/b\r\nContent-Length: 2\r\n\r\n{}"
        );
    }

    #[test]
    fn parses_a_head_and_waits_for_more() {
        let text = b"HTTP/1.1 201 Created\r\ncontent-length: 5\r\nconnection: close\r\n\r\nhello";
        assert!(parse_head(&text[..20], false, false).unwrap().is_none());
        let head = parse_head(text, false, true).unwrap().unwrap();
        assert_eq!((head.status, head.body_len, head.close), (201, 5, true));
        assert_eq!(head.len, text.len() - 5);
        assert_eq!(head.headers.len(), 2);
        let no_body = b"HTTP/1.1 204 No Content\r\n\r\n";
        assert_eq!(
            parse_head(no_body, false, false).unwrap().unwrap().body_len,
            0
        );
    }
}
