//! The front page at `/`: what a person who opens the server in a browser sees, with the
//! links to the API root and its OpenAPI document. No script, nothing from elsewhere.

use cairn_runtime::media::Wire;
use poem::Response;

/// Escapes text for HTML.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The front page for the API in its `dialects` (prefix with its sub-folder, vendor).
pub fn page(dialects: &[Wire]) -> Response {
    let p = escape(&dialects[0].prefix);
    let roots: String = dialects
        .iter()
        .map(|w| {
            let (p, v) = (escape(&w.prefix), escape(&w.vendor));
            format!(
                "<li><a href=\"{p}/\">The API root</a> (<code>{p}/</code>, media types \
                 <code>application/vnd.{v}.api.*</code>) and its \
                 <a href=\"{p}/openapi.json\">OpenAPI 3.1 document</a></li>\n"
            )
        })
        .collect();
    let html = format!(
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>cairn</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem;line-height:1.5}}code{{background:#f3f3f3;padding:0 .2rem}}</style>
</head><body>
<h1>cairn</h1>
<p>A content repository speaking the Ibexa DXP / eZ Platform REST API v2, in XML and JSON.</p>
<ul>
{roots}<li><a href="/health">Health</a>, <a href="/ready">readiness</a></li>
</ul>
<p>Log in with HTTP Basic or <code>POST {p}/user/sessions</code>.</p>
</body></html>
"#
    );
    Response::builder()
        .content_type("text/html; charset=utf-8")
        .header("x-content-type-options", "nosniff")
        .header(
            "content-security-policy",
            "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
        )
        .body(html)
}
