//! Server-Sent Events read as they come: `Req::open` and the `Streamed` response.

use super::Req;
use poem::http::{HeaderMap, StatusCode};
use poem::{Endpoint, Request};

/// A response whose body is read as it comes (Server-Sent Events).
pub struct Streamed {
    pub status: StatusCode,
    pub headers: HeaderMap,
    body: futures_util::stream::BoxStream<'static, std::io::Result<bytes::Bytes>>,
    text: String,
}

impl Req<'_> {
    /// Sends the request and returns as soon as the response's head is there.
    pub async fn open(self) -> Streamed {
        let mut b = Request::builder().method(self.method).uri_str(&self.uri);
        for (k, v) in &self.headers {
            b = b.header(k.as_str(), v.as_str());
        }
        let resp = self.app.endpoint.get_response(b.body(self.body)).await;
        Streamed {
            status: resp.status(),
            headers: resp.headers().clone(),
            body: Box::pin(resp.into_body().into_bytes_stream()),
            text: String::new(),
        }
    }
}

impl Streamed {
    /// The next `n` events (`id`, `data`), comments and `retry:` skipped; panics after 10 s
    /// without them.
    pub async fn events(&mut self, n: usize) -> Vec<(String, String)> {
        use futures_util::StreamExt;
        let mut out = Vec::new();
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
        while out.len() < n {
            if let Some(end) = self.text.find("\n\n") {
                let block: String = self.text.drain(..end + 2).collect();
                let (mut id, mut data) = (None, Vec::new());
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("id: ") {
                        id = Some(v.to_string());
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        data.push(v);
                    }
                }
                if let Some(id) = id {
                    out.push((id, data.join("\n")));
                }
                continue;
            }
            let chunk = tokio::time::timeout_at(deadline, self.body.next())
                .await
                .unwrap_or_else(|_| {
                    panic!("{} of {n} events came; then: {:?}", out.len(), self.text)
                })
                .expect("the stream ended")
                .expect("the stream failed");
            self.text.push_str(&String::from_utf8_lossy(&chunk));
        }
        out
    }

    /// Whether the stream ends within `seconds`, its remaining events skipped.
    pub async fn ends_within(&mut self, seconds: u64) -> bool {
        use futures_util::StreamExt;
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(seconds);
        loop {
            match tokio::time::timeout_at(deadline, self.body.next()).await {
                Err(_) => return false,
                Ok(None) => return true,
                Ok(Some(_)) => {}
            }
        }
    }
}
