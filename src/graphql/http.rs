//! `/graphql` over HTTP: GET (`query`, `variables`, `operationName` in the query string), POST
//! as JSON (`{"query", "variables", "operationName"}`), as `application/graphql` (the query is
//! the body) or as a form, and OPTIONS. Callers are authenticated exactly as the REST API's
//! (a session cookie, with `X-CSRF-Token` on POST; HTTP Basic; a JSON Web Token), anonymous
//! callers with the Anonymous Role's rights, `X-Siteaccess` honoured. Answers are JSON: `data`
//! and `errors`, 200 as GraphQL servers answer, 4xx when the request itself is not one.

use super::data::{Client, Gq};
use super::schema::{self, Built, Schemas};
use crate::mount::Services;
use cairn_runtime::http::{Access, Called, Edge, Operation, Settings, parse_query};
use cairn_runtime::{Rendered, ResponseCache};
use poem::http::{Method, StatusCode, header};
use poem::{Endpoint, Request, Response};
use std::sync::Arc;

/// Where GraphQL is served, beside the REST prefixes (the reference's path).
pub const PATH: &str = "/graphql";
/// The largest request body read, but for a multipart one (the API's `--max-body-mib`).
const MAX_BODY: usize = 1 << 20;
/// The most files a multipart request uploads.
const MAX_FILES: usize = 100;

const fn operation(method: &'static str) -> Operation {
    Operation {
        id: "graphql",
        family: "graphql",
        method,
        path: PATH,
        access: Access::Read,
        policies: &[],
        filters: false,
        csrf: true,
        inputs: &[],
        // Reads the repository's generation first, as cached reads do (another instance's
        // content type changes are seen there).
        cached: true,
        shows: None,
        narrow: false,
        edge: Edge::Private,
        tags: &[],
        numeric: &[],
    }
}

static QUERY_GET: Operation = operation("GET");
static QUERY_POST: Operation = operation("POST");

/// The endpoint, authenticating as the API does in the first dialect.
pub fn endpoint(
    services: Arc<Services>,
    dialect: Arc<Settings>,
) -> impl Endpoint<Output = Response> {
    let schemas = Arc::new(Schemas::default());
    poem::endpoint::make(move |req: Request| {
        let (services, dialect, schemas) = (services.clone(), dialect.clone(), schemas.clone());
        async move {
            let called = match *req.method() {
                Method::GET | Method::HEAD => &QUERY_GET,
                _ => &QUERY_POST,
            };
            let mut resp = answer(&services, dialect, &schemas, req).await;
            // What the request log and the metrics name it.
            resp.extensions_mut().insert(Called(called));
            Ok::<_, poem::Error>(resp)
        }
    })
}

/// A JSON answer.
fn json(status: StatusCode, body: &serde_json::Value) -> Response {
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.to_string())
}

/// A request that is no GraphQL request (or may not run): `errors` only.
fn refused(status: StatusCode, message: &str) -> Response {
    json(
        status,
        &serde_json::json!({"errors": [{"message": message}]}),
    )
}

/// What a GraphQL request asks.
struct Asked {
    query: String,
    variables: Option<serde_json::Value>,
    operation: Option<String>,
    /// A multipart request (the GraphQL multipart request spec: `operations`, `map`, the
    /// files), read whole with its uploads.
    prepared: Option<async_graphql::Request>,
}

fn from_pairs(pairs: Vec<(String, String)>) -> Result<Asked, String> {
    let mut asked = Asked {
        query: String::new(),
        variables: None,
        operation: None,
        prepared: None,
    };
    for (k, v) in pairs {
        match k.as_str() {
            "query" => asked.query = v,
            "variables" if !v.is_empty() => {
                asked.variables = Some(
                    serde_json::from_str(&v).map_err(|e| format!("variables: not JSON: {e}"))?,
                )
            }
            "operationName" if !v.is_empty() => asked.operation = Some(v),
            _ => {}
        }
    }
    Ok(asked)
}

async fn read(req: &mut Request, max_body: usize) -> Result<Asked, (StatusCode, String)> {
    let bad = |m: String| (StatusCode::BAD_REQUEST, m);
    if req.method() == Method::GET {
        return from_pairs(parse_query(req.uri().query().unwrap_or_default())).map_err(bad);
    }
    let full_type = req
        .header(header::CONTENT_TYPE.as_str())
        .map(str::to_string);
    if (full_type
        .as_deref()
        .unwrap_or_default()
        .to_ascii_lowercase())
    .starts_with("multipart/form-data")
    {
        let bytes = req
            .take_body()
            .into_bytes_limit(max_body)
            .await
            .map_err(|_| {
                (
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!("The body is over {max_body} bytes"),
                )
            })?;
        let options = async_graphql::http::MultipartOptions::default()
            .max_file_size(max_body)
            .max_num_files(MAX_FILES);
        let request = async_graphql::http::receive_body(
            full_type,
            futures_util::io::Cursor::new(bytes),
            options,
        )
        .await
        .map_err(|e| bad(format!("A multipart GraphQL request: {e}")))?;
        return Ok(Asked {
            query: request.query.clone(),
            variables: None,
            operation: request.operation_name.clone(),
            prepared: Some(request),
        });
    }
    let media = req
        .header(header::CONTENT_TYPE.as_str())
        .unwrap_or("application/json")
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let body = req.take_body();
    let bytes = body.into_bytes_limit(MAX_BODY).await.map_err(|_| {
        (
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("The body is over {MAX_BODY} bytes"),
        )
    })?;
    let text = std::str::from_utf8(&bytes).map_err(|_| bad("The body is not UTF-8".into()))?;
    match media.as_str() {
        "application/json" => {
            let v: serde_json::Value =
                serde_json::from_str(text).map_err(|e| bad(format!("Malformed JSON: {e}")))?;
            let query = v
                .get("query")
                .and_then(|q| q.as_str())
                .unwrap_or_default()
                .to_string();
            let variables = match v.get("variables") {
                Some(serde_json::Value::String(s)) if !s.is_empty() => Some(
                    serde_json::from_str(s)
                        .map_err(|e| bad(format!("variables: not JSON: {e}")))?,
                ),
                Some(serde_json::Value::Null) | None => None,
                Some(serde_json::Value::String(_)) => None,
                Some(other) => Some(other.clone()),
            };
            let operation = v
                .get("operationName")
                .and_then(|o| o.as_str())
                .map(str::to_string);
            Ok(Asked {
                query,
                variables,
                operation,
                prepared: None,
            })
        }
        "application/graphql" => Ok(Asked {
            query: text.to_string(),
            variables: None,
            operation: None,
            prepared: None,
        }),
        "application/x-www-form-urlencoded" => from_pairs(parse_query(text)).map_err(bad),
        other => Err((
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "A GraphQL request is application/json, application/graphql, a form or multipart, not {other}"
            ),
        )),
    }
}

async fn answer(
    services: &Arc<Services>,
    dialect: Arc<Settings>,
    schemas: &Schemas,
    mut req: Request,
) -> Response {
    let op = match *req.method() {
        Method::OPTIONS => {
            return Response::builder()
                .status(StatusCode::NO_CONTENT)
                .header(header::ALLOW, "GET, POST, OPTIONS")
                .finish();
        }
        Method::GET | Method::HEAD => &QUERY_GET,
        Method::POST => &QUERY_POST,
        _ => {
            return Response::builder()
                .status(StatusCode::METHOD_NOT_ALLOWED)
                .header(header::ALLOW, "GET, POST, OPTIONS")
                .header(header::CONTENT_TYPE, "application/json")
                .body(
                    serde_json::json!({"errors": [{"message": "GraphQL is asked with GET or POST"}]})
                        .to_string(),
                );
        }
    };
    let asked = match read(&mut req, dialect.max_body).await {
        Ok(a) if a.query.trim().is_empty() => {
            return refused(StatusCode::BAD_REQUEST, "The request has no query");
        }
        Ok(a) => a,
        Err((status, m)) => return refused(status, &m),
    };
    let mutation = is_mutation(&asked);
    if op.method == "GET" && mutation {
        return Response::builder()
            .status(StatusCode::METHOD_NOT_ALLOWED)
            .header(header::ALLOW, "POST")
            .header(header::CONTENT_TYPE, "application/json")
            .body(
                serde_json::json!({"errors": [{"message": "A mutation is sent with POST"}]})
                    .to_string(),
            );
    }
    let reader = (req.extensions().get::<Arc<cairn_store::Reader>>())
        .cloned()
        .unwrap_or_else(|| Arc::new(services.db.plain_reader()));
    let peer = req.remote_addr().as_socket_addr().map(|a| a.ip());
    let generation = match services.generation_for(&reader, op).await {
        Ok(g) => g,
        Err(e) => return refused(StatusCode::SERVICE_UNAVAILABLE, &e.to_string()),
    };
    let caller = services
        .authenticate(req.headers(), peer, op, dialect, generation, reader.clone())
        .await;
    let cx = match caller {
        Ok(cx) => cx,
        Err(e) => {
            let e = cairn_runtime::HttpError::from(e);
            return refused(e.status, &e.description);
        }
    };
    let built = match current(services, schemas, &reader).await {
        Ok(b) => b,
        Err(e) => {
            tracing::error!(error = %e, "GraphQL: no schema");
            return refused(
                StatusCode::INTERNAL_SERVER_ERROR,
                "The schema could not be made",
            );
        }
    };
    // A query's answer is kept by the response cache as a REST GET's is: for the caller, until
    // the next change (what a query reads is not known before it runs: any change).
    let slot = match (&services.responses, generation) {
        (Some(cache), Some(generation)) if !mutation => {
            let variables = (asked.variables.as_ref()).map_or(String::new(), |v| v.to_string());
            let user = cx.user_id.to_string();
            let siteaccess = req.header("x-siteaccess").unwrap_or_default();
            let parts: [&[u8]; 6] = [
                PATH.as_bytes(),
                asked.query.as_bytes(),
                variables.as_bytes(),
                asked.operation.as_deref().unwrap_or_default().as_bytes(),
                siteaccess.as_bytes(),
                user.as_bytes(),
            ];
            let slot = ResponseCache::slot_of(&parts, generation, None);
            let found = cache.get(&slot);
            crate::metrics::cache_lookup("responses", found.is_some());
            if let Some(page) = found {
                return Response::builder()
                    .status(page.status)
                    .header(header::CONTENT_TYPE, "application/json")
                    .body(page.body.clone());
            }
            Some(slot)
        }
        _ => None,
    };
    let client = Client {
        services: services.clone(),
        cx,
        domain: built.domain.clone(),
    };
    let mut request = match asked.prepared {
        Some(prepared) => prepared,
        None => {
            let mut request = async_graphql::Request::new(asked.query);
            if let Some(v) = asked.variables {
                request = request.variables(async_graphql::Variables::from_json(v));
            }
            if let Some(o) = asked.operation {
                request = request.operation_name(o);
            }
            request
        }
    };
    language_variables(&mut request, &built.domain);
    request = request.data(Gq::new(client));
    let response = built.schema.execute(request).await;
    let body = match serde_json::to_vec(&response) {
        Ok(body) => bytes::Bytes::from(body),
        Err(e) => return refused(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    };
    if let (Some(cache), Some(slot)) = (&services.responses, slot)
        && response.errors.is_empty()
    {
        let page = Rendered {
            status: StatusCode::OK,
            etag: None,
            headers: Vec::new(),
            body: body.clone(),
        };
        cache.put(slot, Arc::new(page));
    }
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "application/json")
        .body(body)
}

/// Whether the operation a request runs is a mutation (a query that does not parse is left
/// to the executor, which says where it fails).
fn is_mutation(asked: &Asked) -> bool {
    use async_graphql::parser::types::{DocumentOperations, OperationType};
    let Ok(doc) = async_graphql::parser::parse_query(&asked.query) else {
        return false;
    };
    let is = |t: OperationType| t == OperationType::Mutation;
    match &doc.operations {
        DocumentOperations::Single(op) => is(op.node.ty),
        DocumentOperations::Multiple(ops) => match &asked.operation {
            Some(name) => ops.get(name.as_str()).is_some_and(|op| is(op.node.ty)),
            None => ops.values().any(|op| is(op.node.ty)),
        },
    }
}

/// The schema of the content types as they are now.
pub async fn current(
    services: &Services,
    schemas: &Schemas,
    reader: &cairn_store::Reader,
) -> anyhow::Result<Arc<Built>> {
    let generation = services.types.generation();
    schemas
        .current(generation, async || {
            let variations = services.images.variations().names().to_vec();
            let domain = super::domain::load(reader, &variations).await?;
            schema::build(Arc::new(domain))
        })
        .await
}

/// The reference's `RepositoryLanguage` values are the language codes (`eng-GB`), which no
/// GraphQL name can be: its clients can only give them as variables. A variable of a
/// `RepositoryLanguage` type holding a code is read as cairn's name of it (`eng_GB`).
fn language_variables(request: &mut async_graphql::Request, domain: &super::domain::Domain) {
    use async_graphql::parser::types::{BaseType, Type};
    fn of_languages(t: &Type) -> bool {
        match &t.base {
            BaseType::Named(n) => n.as_str() == "RepositoryLanguage",
            BaseType::List(t) => of_languages(t),
        }
    }
    fn rename(v: &mut async_graphql::Value, domain: &super::domain::Domain) {
        match v {
            async_graphql::Value::String(s) if s.contains('-') => {
                let name = super::domain::language_name(s);
                if domain.languages.contains_key(&name) {
                    *s = name;
                }
            }
            async_graphql::Value::List(l) => l.iter_mut().for_each(|v| rename(v, domain)),
            _ => {}
        }
    }
    if request.variables.is_empty() {
        return;
    }
    // A query that does not parse is refused by the execution, with its error.
    let Ok(document) = request.parsed_query() else {
        return;
    };
    let names: Vec<async_graphql::Name> = (document.operations.iter())
        .flat_map(|(_, op)| op.node.variable_definitions.iter())
        .filter(|d| of_languages(&d.node.var_type.node))
        .map(|d| d.node.name.node.clone())
        .collect();
    for name in names {
        if let Some(v) = request.variables.get_mut(&name) {
            rename(v, domain);
        }
    }
}
