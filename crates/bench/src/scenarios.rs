//! The scenarios: one table entry each. A scenario is a request (method, path under the API
//! prefix, headers, body) repeated under load, with an optional `setup` run once before that
//! may call the server (create something, log in) and returns variables; `{name}` in the
//! path, header values and body is replaced by the variable `name`.

use crate::client::{Conn, Request, Response};
use anyhow::{Context, Result, bail};
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;

/// The API prefix of a server started with the default vendor.
pub const PREFIX: &str = "/api/ibexa/v2";

/// Variables a setup step returns: (name, value).
pub type Vars = Vec<(String, String)>;
/// A setup step: called once with the server before the scenario is measured.
pub type Setup = fn(Api) -> Pin<Box<dyn Future<Output = Result<Vars>> + Send>>;

/// One benchmark scenario.
pub struct Scenario {
    pub name: &'static str,
    pub method: &'static str,
    /// Path under [`PREFIX`], e.g. `/content/sections/1`; one starting with `@` is at the
    /// server's root (`@/graphql`).
    pub path: &'static str,
    pub headers: &'static [(&'static str, &'static str)],
    pub body: &'static str,
    pub setup: Option<Setup>,
}

const XML: (&str, &str) = ("Accept", "application/vnd.ibexa.api.Root+xml");
/// HTTP Basic as admin (`admin:publish`): Sections and users are not for the anonymous user.
const ADMIN: (&str, &str) = ("Authorization", "Basic YWRtaW46cHVibGlzaA==");
const JSON: (&str, &str) = ("Accept", "application/vnd.ibexa.api.Root+json");

/// Every scenario, in the order they run.
pub static SCENARIOS: &[Scenario] = &[
    Scenario {
        name: "root-xml",
        method: "GET",
        path: "/",
        headers: &[XML],
        body: "",
        setup: None,
    },
    Scenario {
        name: "root-json",
        method: "GET",
        path: "/",
        headers: &[JSON],
        body: "",
        setup: None,
    },
    Scenario {
        name: "section-xml",
        method: "GET",
        path: "/content/sections/1",
        headers: &[("Accept", "application/vnd.ibexa.api.Section+xml"), ADMIN],
        body: "",
        setup: None,
    },
    Scenario {
        name: "section-json",
        method: "GET",
        path: "/content/sections/1",
        headers: &[("Accept", "application/vnd.ibexa.api.Section+json"), ADMIN],
        body: "",
        setup: None,
    },
    // A Location with its content item's ContentInfo embedded: several reads per request.
    Scenario {
        name: "location-json",
        method: "GET",
        path: "/content/locations/1/2",
        headers: &[("Accept", "application/vnd.ibexa.api.Location+json")],
        body: "",
        setup: None,
    },
    Scenario {
        name: "children-json",
        method: "GET",
        path: "/content/locations/1/children",
        headers: &[("Accept", "application/vnd.ibexa.api.LocationList+json")],
        body: "",
        setup: None,
    },
    // A full content item (its current version with its fields embedded), as front ends read
    // it most: an article with its title, richtext intro and body, as a client reads it with
    // HTTP Basic.
    Scenario {
        name: "content-json",
        method: "GET",
        path: "/content/objects/{article}",
        headers: &[("Accept", "application/vnd.ibexa.api.Content+json"), ADMIN],
        body: "",
        setup: Some(|api| Box::pin(async move { api.article().await })),
    },
    Scenario {
        name: "content-xml",
        method: "GET",
        path: "/content/objects/{article}",
        headers: &[("Accept", "application/vnd.ibexa.api.Content+xml"), ADMIN],
        body: "",
        setup: Some(|api| Box::pin(async move { api.article().await })),
    },
    // A user with its current version embedded and its account.
    Scenario {
        name: "user-json",
        method: "GET",
        path: "/user/users/14",
        headers: &[("Accept", "application/vnd.ibexa.api.User+json"), ADMIN],
        body: "",
        setup: None,
    },
    // A search view: the folders under Media by name, full Content hits (a front end's list
    // as admin; the Media Section is not the anonymous user's).
    Scenario {
        name: "view-json",
        method: "POST",
        path: "/views",
        headers: &[
            ADMIN,
            ("Accept", "application/vnd.ibexa.api.View+json"),
            (
                "Content-Type",
                "application/vnd.ibexa.api.ViewInput+json; version=1.1",
            ),
        ],
        body: r#"{"ViewInput":{"identifier":"media","ContentQuery":{"Filter":{"ParentLocationIdCriterion":"43","ContentTypeIdentifierCriterion":"folder"},"SortClauses":{"ContentName":"ascending"},"limit":10}}}"#,
        setup: None,
    },
    // GraphQL (issue 46): the admin UI's sub-items query over 10 folders, and a list of 10
    // articles with their fields, as admin with HTTP Basic.
    Scenario {
        name: "graphql-sub-items",
        method: "POST",
        path: "@/graphql",
        headers: &[
            ADMIN,
            ("Accept", "application/json"),
            ("Content-Type", "application/json"),
        ],
        body: SUB_ITEMS,
        setup: Some(|api| Box::pin(async move { api.children(10).await })),
    },
    Scenario {
        name: "graphql-articles",
        method: "POST",
        path: "@/graphql",
        headers: &[
            ADMIN,
            ("Accept", "application/json"),
            ("Content-Type", "application/json"),
        ],
        body: ARTICLES,
        setup: Some(|api| {
            Box::pin(async move {
                for _ in 0..10 {
                    api.article().await?;
                }
                Ok(Vec::new())
            })
        }),
    },
    // The same read by a logged-in user: adds finding the session for each request.
    Scenario {
        name: "section-json-session",
        method: "GET",
        path: "/content/sections/1",
        headers: &[
            ("Accept", "application/vnd.ibexa.api.Section+json"),
            ("Cookie", "{cookie}"),
        ],
        body: "",
        setup: Some(|api| Box::pin(async move { api.login().await })),
    },
    // Every login verifies the password with argon2 and stores a new session: slow on purpose.
    Scenario {
        name: "login",
        method: "POST",
        path: "/user/sessions",
        headers: &[
            ("Accept", "application/vnd.ibexa.api.Session+json"),
            (
                "Content-Type",
                "application/vnd.ibexa.api.SessionInput+json",
            ),
        ],
        body: r#"{"SessionInput":{"login":"admin","password":"publish"}}"#,
        setup: None,
    },
];

/// The scenarios called `names`, in table order; all of them when `names` is empty.
pub fn select(names: &[String]) -> Result<Vec<&'static Scenario>> {
    for name in names {
        if !SCENARIOS.iter().any(|s| s.name == name) {
            let known: Vec<_> = SCENARIOS.iter().map(|s| s.name).collect();
            bail!("no scenario '{name}'; known: {}", known.join(", "));
        }
    }
    Ok(SCENARIOS
        .iter()
        .filter(|s| names.is_empty() || names.iter().any(|n| n == s.name))
        .collect())
}

impl Scenario {
    /// Runs the setup step, if any, against the server at `addr`.
    pub async fn prepare(&self, addr: SocketAddr) -> Result<Vars> {
        match self.setup {
            Some(setup) => setup(Api { addr })
                .await
                .with_context(|| format!("setup of scenario {}", self.name)),
            None => Ok(Vars::new()),
        }
    }

    /// The request to repeat, with the setup's variables filled in.
    pub fn request(&self, vars: &Vars) -> Request {
        let fill = |text: &str| {
            vars.iter().fold(text.to_string(), |text, (name, value)| {
                text.replace(&format!("{{{name}}}"), value)
            })
        };
        let mut req = Request::new(self.method, &full_path(&fill(self.path)));
        for (name, value) in self.headers {
            req = req.header(name, &fill(value));
        }
        req.body(fill(self.body))
    }
}

/// A scenario's path as sent: under [`PREFIX`], or at the root when it starts with `@`.
fn full_path(path: &str) -> String {
    match path.strip_prefix('@') {
        Some(root) => root.to_string(),
        None => format!("{PREFIX}{path}"),
    }
}

/// The admin UI's sub-items query (ibexa/admin-ui 4.6 `sub.items.service.js`) for the first
/// 10 children of Location 2 by name, as its JSON body.
const SUB_ITEMS: &str = r#"{"query":"{ _repository { location(locationId: 2) { pathString children(sortBy: [_name, ], first:10) { totalCount pages { number cursor } edges { node { id remoteId invisible hidden priority pathString content { _thumbnail { uri alternativeText mimeType } _name _info { id name remoteId mainLanguageCode owner { id name thumbnail { uri alternativeText mimeType } content { _type { identifier } } } currentVersion { versionNumber creator { id name thumbnail { uri alternativeText mimeType } content { _type { identifier } } } languageCodes } contentType { name identifier } section { name } publishedDate { timestamp } modificationDate { timestamp } } } } } } } } }"}"#;

/// Ten articles with their fields, as a front end lists them.
const ARTICLES: &str = r#"{"query":"{ content { articles(first: 10, sortBy: [_contentId]) { totalCount edges { node { title intro { html5 } body { html5 } _name _location { pathString } _contentInfo { publishedDate { timestamp } } } } } } }"}"#;

/// What setup steps get: the server, and helpers for common steps.
#[derive(Debug, Clone, Copy)]
pub struct Api {
    pub addr: SocketAddr,
}

impl Api {
    /// Sends one request on a fresh connection; `path` is under [`PREFIX`] (at the root when
    /// it starts with `@`).
    pub async fn send(&self, mut req: Request) -> Result<Response> {
        req.path = full_path(&req.path);
        let what = format!("{} {}", req.method, req.path);
        let resp = Conn::connect(self.addr).await?.send(&req).await?;
        if !resp.is_success() {
            bail!("{what} answered {}: {}", resp.status, resp.excerpt());
        }
        Ok(resp)
    }

    /// Creates and publishes an article under Location 2 with its title, intro and body
    /// (richtext paragraphs); returns `article`, its content id.
    pub async fn article(&self) -> Result<Vars> {
        let paragraphs = |words: &str, n: usize| {
            let para = format!("<para>{words}</para>");
            format!(
                r#"<?xml version="1.0" encoding="UTF-8"?><section xmlns="http://docbook.org/ns/docbook" xmlns:xlink="http://www.w3.org/1999/xlink" version="5.0-variant ezpublish-1.0">{}</section>"#,
                para.repeat(n)
            )
        };
        let text = "Front ends read far more than editors write, and each read of an \
                    article carries its title, its introduction and its body.";
        let field = |id: &str, value: serde_json::Value| serde_json::json!({"fieldDefinitionIdentifier": id, "fieldValue": value});
        let body = serde_json::json!({"ContentCreate": {
            "ContentType": {"_href": format!("{PREFIX}/content/types/2")},
            "mainLanguageCode": "eng-GB",
            "LocationCreate": {"ParentLocation": {"_href": format!("{PREFIX}/content/locations/1/2")}},
            "fields": {"field": [
                field("title", "An article read by front ends".into()),
                field("intro", serde_json::json!({"xml": paragraphs(text, 2)})),
                field("body", serde_json::json!({"xml": paragraphs(text, 12)})),
            ]},
        }});
        let created = self
            .send(
                Request::new("POST", "/content/objects")
                    .header("Authorization", ADMIN.1)
                    .header(
                        "Content-Type",
                        "application/vnd.ibexa.api.ContentCreate+json",
                    )
                    .header("Accept", "application/vnd.ibexa.api.ContentInfo+json")
                    .body(body.to_string()),
            )
            .await?;
        let Some(id) = created.json()?["Content"]["_id"].as_i64() else {
            bail!("unexpected ContentInfo: {}", created.excerpt());
        };
        self.send(
            Request::new("PUBLISH", &format!("/content/objects/{id}/versions/1"))
                .header("Authorization", ADMIN.1),
        )
        .await?;
        Ok(vec![("article".into(), id.to_string())])
    }

    /// Creates and publishes `n` folders under Location 2 (`?publish=true`).
    pub async fn children(&self, n: usize) -> Result<Vars> {
        for i in 0..n {
            let body = serde_json::json!({"ContentCreate": {
                "ContentType": {"_href": format!("{PREFIX}/content/types/1")},
                "mainLanguageCode": "eng-GB",
                "LocationCreate": {"ParentLocation": {"_href": format!("{PREFIX}/content/locations/1/2")}},
                "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": format!("Folder {i:02}")}]},
            }});
            self.send(
                Request::new("POST", "/content/objects?publish=true")
                    .header("Authorization", ADMIN.1)
                    .header(
                        "Content-Type",
                        "application/vnd.ibexa.api.ContentCreate+json",
                    )
                    .header("Accept", "application/vnd.ibexa.api.ContentInfo+json")
                    .body(body.to_string()),
            )
            .await?;
        }
        Ok(Vec::new())
    }

    /// Logs in as admin; returns `cookie` (`name=value`) and `csrf` (the CSRF token).
    pub async fn login(&self) -> Result<Vars> {
        let resp = self
            .send(
                Request::new("POST", "/user/sessions")
                    .header("Accept", "application/vnd.ibexa.api.Session+json")
                    .header(
                        "Content-Type",
                        "application/vnd.ibexa.api.SessionInput+json",
                    )
                    .body(r#"{"SessionInput":{"login":"admin","password":"publish"}}"#),
            )
            .await?;
        let session = &resp.json()?["Session"];
        let (Some(name), Some(id), Some(csrf)) = (
            session["name"].as_str(),
            session["identifier"].as_str(),
            session["csrfToken"].as_str(),
        ) else {
            bail!("unexpected Session: {}", resp.excerpt());
        };
        Ok(vec![
            ("cookie".into(), format!("{name}={id}")),
            ("csrf".into(), csrf.into()),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_selectable() {
        let mut names: Vec<_> = SCENARIOS.iter().map(|s| s.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), SCENARIOS.len());
        assert_eq!(select(&["login".into()]).unwrap().len(), 1);
        assert!(select(&["nope".into()]).is_err());
    }

    #[test]
    fn variables_fill_path_headers_and_body() {
        let s = Scenario {
            name: "t",
            method: "PATCH",
            path: "/content/sections/{id}",
            headers: &[("Cookie", "{cookie}")],
            body: r#"{"x":"{id}"}"#,
            setup: None,
        };
        let vars = vec![("id".into(), "7".into()), ("cookie".into(), "a=b".into())];
        let req = s.request(&vars);
        assert_eq!(req.path, "/api/ibexa/v2/content/sections/7");
        assert_eq!(req.headers, vec![("Cookie".into(), "a=b".into())]);
        assert_eq!(req.body, br#"{"x":"7"}"#);
    }
}
