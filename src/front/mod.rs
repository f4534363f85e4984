//! What a person who opens the server in a browser sees, outside the API prefix: the front
//! page at `/` (links to each dialect's API root and OpenAPI document, health), the API
//! reference at `/reference` (Redoc, embedded: `assets/redoc/`), and a read-only content
//! browser at `/browse` that walks the tree through the REST API itself. Nothing is loaded
//! from elsewhere; links are relative, so a sub-folder in front of the server keeps working.

use cairn_runtime::media::Wire;
use poem::http::StatusCode;
use poem::{Endpoint, Response, Route};
use std::sync::{Arc, LazyLock};

/// The API reference renderer (Redoc 2.5.4, MIT), as served: its one image from elsewhere
/// (the logo of its menu's footer) replaced by an empty one.
static REDOC: LazyLock<String> = LazyLock::new(|| {
    include_str!("../../assets/redoc/redoc.standalone.js").replace(
        "https://cdn.redoc.ly/redoc/logo-mini.svg",
        "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E",
    )
});
/// The content browser's script.
const BROWSE: &str = include_str!("browse.js");

/// `app` with the pages and their assets, for the API in its `dialects` (the first one
/// foremost).
pub fn mount(app: Route, dialects: Arc<Vec<Wire>>) -> Route {
    let (front, reference, browse) = (dialects.clone(), dialects.clone(), dialects);
    app.at("/", poem::endpoint::make_sync(move |_| page(&front)))
        .at(
            "/reference",
            poem::endpoint::make_sync(move |_| reference_page(&reference[0])),
        )
        .at(
            "/browse",
            poem::endpoint::make_sync(move |_| browse_page(&browse[0])),
        )
        .at("/assets/:name", assets())
        .at("/favicon.svg", poem::endpoint::make_sync(|_| icon()))
        .at("/favicon.ico", poem::endpoint::make_sync(|_| icon()))
}

/// Escapes text for HTML.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An HTML page with `csp` as its Content-Security-Policy.
fn html(body: String, csp: &'static str) -> Response {
    Response::builder()
        .content_type("text/html; charset=utf-8")
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", csp)
        .body(body)
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:48rem;margin:3rem auto;\
padding:0 1rem;line-height:1.5}code{background:#f3f3f3;padding:0 .2rem}";

/// The front page for the API in its `dialects` (prefix with its sub-folder, vendor).
fn page(dialects: &[Wire]) -> Response {
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
    let body = format!(
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>cairn</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="favicon.svg" type="image/svg+xml">
<style>{STYLE}</style>
</head><body>
<h1>cairn</h1>
<p>A content repository speaking the Ibexa DXP / eZ Platform REST API v2, in XML and JSON.</p>
<ul>
<li><a href="browse">Browse the content</a> (read-only, through the REST API)</li>
<li><a href="reference">The API reference</a></li>
{roots}<li><a href="health">Health</a>, <a href="ready">readiness</a></li>
</ul>
<p>Log in with HTTP Basic or <code>POST {p}/user/sessions</code>.</p>
</body></html>
"#
    );
    html(
        body,
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'",
    )
}

/// The API reference of the first dialect, rendered by Redoc from its OpenAPI document.
fn reference_page(wire: &Wire) -> Response {
    let p = escape(&wire.prefix);
    let body = format!(
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>cairn: API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="favicon.svg" type="image/svg+xml">
<style>body{{margin:0}}</style>
</head><body>
<redoc spec-url="{p}/openapi.json" hide-download-button="false"></redoc>
<script src="assets/redoc.standalone.js"></script>
</body></html>
"#
    );
    // Redoc renders with inline styles, compiles schemas (`new Function`) and searches in
    // a worker it starts from a blob.
    html(
        body,
        "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data:; worker-src 'self' blob:; frame-ancestors 'none'",
    )
}

/// The content browser: a page that `assets/browse.js` fills from the REST API.
fn browse_page(wire: &Wire) -> Response {
    let (p, v) = (escape(&wire.prefix), escape(&wire.vendor));
    let body = format!(
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>cairn: content</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="favicon.svg" type="image/svg+xml">
<style>{STYLE}
nav{{display:flex;gap:1rem;align-items:baseline;flex-wrap:wrap}}
#trail a{{margin-right:.3rem}} dt{{font-weight:600;margin-top:.6rem}} dd{{margin-left:1rem;white-space:pre-wrap}}
form{{display:inline}} .error{{color:#a00}} pre{{background:#f3f3f3;padding:.5rem;overflow-x:auto}}</style>
</head><body data-api="{p}" data-vendor="{v}">
<nav><a href="./">cairn</a><span id="who"></span>
<form id="login"><input name="login" placeholder="login" autocomplete="username">
<input name="password" type="password" placeholder="password" autocomplete="current-password">
<button>Log in</button></form><button id="logout" hidden>Log out</button></nav>
<p id="trail"></p>
<h1 id="title">Content</h1>
<p id="message" class="error" role="alert"></p>
<label id="languages" hidden>Language <select id="language"></select></label>
<dl id="fields"></dl>
<h2>Children</h2>
<ul id="children"></ul>
<section id="first" hidden>
<p>Nothing here yet. To create a first item, send the API's
<a href="reference#tag/content/operation/createContent">createContent</a> request, for
example this one, which creates and publishes a folder here as the admin user (copy it into
a terminal), then reload this page:</p>
<pre id="first-request"></pre>
</section>
<script src="assets/browse.js"></script>
</body></html>
"#
    );
    html(
        body,
        "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; \
         img-src 'self'; frame-ancestors 'none'",
    )
}

/// The icon of the pages: a cairn, three stones.
fn icon() -> Response {
    Response::builder()
        .content_type("image/svg+xml")
        .header("cache-control", "public, max-age=86400")
        .body(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 16 16\"><g fill=\"#667\">\
             <ellipse cx=\"8\" cy=\"13\" rx=\"6\" ry=\"2.5\"/><ellipse cx=\"8\" cy=\"8.5\" rx=\"4.5\" ry=\"2\"/>\
             <ellipse cx=\"8\" cy=\"4.5\" rx=\"3\" ry=\"1.8\"/></g></svg>",
        )
}

/// `GET /assets/{name}`: the embedded scripts.
fn assets() -> impl Endpoint<Output = Response> {
    poem::endpoint::make_sync(|req: poem::Request| {
        let body = match req.path_params::<String>().ok().as_deref() {
            Some("redoc.standalone.js") => REDOC.as_str(),
            Some("browse.js") => BROWSE,
            _ => {
                return Response::builder()
                    .status(StatusCode::NOT_FOUND)
                    .content_type("text/plain")
                    .body("no such asset");
            }
        };
        Response::builder()
            .content_type("text/javascript; charset=utf-8")
            .header("x-content-type-options", "nosniff")
            .header("cache-control", "public, max-age=3600")
            .body(body)
    })
}
