//! Table-driven checks: rows for `expect_all` built as admin from `(method, path, status)`
//! triples, and the shortcuts such rows and chains are written with (a JSON body read after
//! its status, an ETag, an `If-Match`).

use super::{Req, TestApp};
use serde_json::Value;

impl Req<'_> {
    /// `If-Match: <etag>`.
    pub fn if_match(self, etag: &str) -> Self {
        self.header("if-match", etag)
    }

    /// Sends the request, asserts the status and returns the body as JSON.
    pub async fn json_of(self, status: u16) -> Value {
        let r = self.send().await;
        r.assert(status);
        r.json()
    }
}

impl TestApp {
    /// The ETag of the resource at `path`, read with a GET as admin (200).
    pub async fn etag(&self, path: &str) -> String {
        let r = self.get(path).admin().send().await;
        r.assert(200);
        r.header("etag")
            .unwrap_or_else(|| panic!("no ETag on {path}"))
    }
}

/// Rows `(method, path, status)` as admin requests without a body, for `expect_all`.
pub fn admin_rows<'a>(app: &'a TestApp, rows: &[(&str, &str, u16)]) -> Vec<(Req<'a>, u16)> {
    rows.iter()
        .map(|(method, path, status)| (app.req(method, path).admin(), *status))
        .collect()
}

impl TestApp {
    /// A GET of `path` as admin accepting `media` (`RoleList+json`): asserts 200 and returns
    /// the body as JSON.
    pub async fn get_json(&self, path: &str, media: &str) -> Value {
        self.get(path).admin().accept(media).json_of(200).await
    }
}
