//! The mutations, as ibexa/graphql 4.6's `DomainContentMutationResolver` and friends make them:
//! `create<X>` (a draft made and published), `update<X>` (a draft from the current version, or
//! from `versionNo`; published unless `versionNo` names a draft), `deleteContent`,
//! `createToken`. Each calls the REST API's own operations as the caller, with the same
//! permissions and validation; a write is the operation's transaction, and a draft left by a
//! failed update is removed again.

use super::data::{self, Gq, error, from_global_id, get, int, text};
use super::domain::FieldDesc;
use crate::api::model::*;
use crate::api::traits::*;
use crate::auth::Caller;
use crate::mount::Services;
use async_graphql::UploadValue;
use async_graphql::Value;
use async_graphql::dynamic::{ObjectAccessor, ResolverContext, ValueAccessor};
use cairn_runtime::http::decode_json;
use serde_json::{Value as Json, json};

type Result<T> = data::Result<T>;

/// The caller of the write `op` on `resource` (what the change is recorded as made to).
fn writer(gq: &Gq, op: &str, resource: String) -> Result<Caller> {
    let mut cx = gq.client.calling(op)?;
    cx.resource = resource;
    Ok(cx)
}

/// A write is done: the caches it made stale are dropped, as after a REST write.
async fn done(gq: &Gq, cx: &Caller) {
    ApiBase::completed(&*gq.client.services, cx, cx.op).await;
}

/// The language code of the `language` argument.
fn language(gq: &Gq, ctx: &ResolverContext<'_>) -> Result<String> {
    let arg = ctx.args.try_get("language")?;
    let name = arg.enum_name()?;
    Ok(gq
        .domain()
        .languages
        .get(name)
        .cloned()
        .unwrap_or_else(|| name.to_string()))
}

fn json_of(v: &Value) -> Json {
    v.clone().into_json().unwrap_or(Json::Null)
}

/// An uploaded file of a request (`FileUpload`): its name, type and bytes.
fn upload(ctx: &ResolverContext<'_>, v: ValueAccessor<'_>) -> Result<UploadValue> {
    Ok(v.upload()?.value(ctx)?)
}

fn base64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A file input (`ImageFieldInput`, `BinaryFieldInput`, `MediaFieldInput`) as the REST API
/// takes the field type's value: its upload in `data`, the rest as given.
fn file_value(ctx: &ResolverContext<'_>, f: &FieldDesc, v: ValueAccessor<'_>) -> Result<Json> {
    let input = v.object()?;
    let Some(file) = input.get("file").filter(|x| !x.is_null()) else {
        return Err(format!("{}: a file is needed", f.name).into());
    };
    let file = upload(ctx, file)?;
    let mut value = serde_json::Map::new();
    let name = match input.get("fileName").or_else(|| input.get("name")) {
        Some(n) if !n.is_null() => n.string()?.to_string(),
        _ => file.filename.clone(),
    };
    value.insert("fileName".into(), name.into());
    value.insert("data".into(), base64(&file.content).into());
    for (k, x) in input.iter() {
        if !matches!(k.as_str(), "file" | "fileName" | "name") && !x.is_null() {
            value.insert(k.to_string(), json_of(x.as_value()));
        }
    }
    Ok(Json::Object(value))
}

/// An input field's value as the REST API takes the field type's value.
fn input_value(ctx: &ResolverContext<'_>, f: &FieldDesc, acc: ValueAccessor<'_>) -> Result<Json> {
    let j = json_of(acc.as_value());
    Ok(match f.field_type.as_str() {
        "ezdate" | "ezdatetime" => {
            let format = j
                .get("format")
                .and_then(Json::as_str)
                .unwrap_or("timestring");
            let input = j.get("input").cloned().unwrap_or(Json::Null);
            match format {
                "timestamp" => {
                    let ts = match &input {
                        Json::String(s) => s.parse::<i64>().ok(),
                        other => other.as_i64(),
                    };
                    json!({"timestamp": ts})
                }
                "rfc850" => json!({"rfc850": input}),
                _ => json!({"timestring": input}),
            }
        }
        "ezrichtext" => {
            let input = j.get("input").and_then(Json::as_str).unwrap_or_default();
            let html = match j.get("format").and_then(Json::as_str) {
                Some("html") => input.to_string(),
                Some("markdown") => markdown(input),
                // Without a format (the reference requires one): a DocBook document as is.
                _ => return Ok(json!({"xml": input})),
            };
            let docbook = crate::field_types::richtext::from_html(&html)
                .map_err(|e| format!("{}: the rich text cannot be converted: {e}", f.name))?;
            json!({"xml": docbook})
        }
        "ezmatrix" => json!({"entries": j}),
        "ezobjectrelation" => json!({"destinationContentId": j}),
        "ezobjectrelationlist" => json!({"destinationContentIds": j}),
        "ezimage" | "ezbinaryfile" | "ezmedia" => file_value(ctx, f, acc)?,
        _ => j,
    })
}

/// Markdown as HTML (CommonMark, with tables and strikethrough), as the reference turns it
/// into HTML (Parsedown) before converting that.
fn markdown(text: &str) -> String {
    use pulldown_cmark::{Options, Parser, html};
    let parser = Parser::new_ext(text, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH);
    let mut out = String::new();
    html::push_html(&mut out, parser);
    out
}

/// The `fields` of a REST body from a mutation's `input`, in `language`.
fn fields(
    ctx: &ResolverContext<'_>,
    ti_fields: &[FieldDesc],
    input: &ObjectAccessor<'_>,
    language: &str,
) -> Result<Json> {
    let mut out = Vec::new();
    for f in ti_fields {
        if let Some(v) = input.get(&f.name)
            && !v.is_null()
        {
            out.push(json!({
                "fieldDefinitionIdentifier": f.identifier,
                "languageCode": language,
                "fieldValue": input_value(ctx, f, v)?,
            }));
        }
    }
    Ok(json!({"field": out}))
}

/// The item of content `id` as it is now.
async fn fresh_item(gq: &Gq, id: i64) -> Result<Value> {
    let mut found = gq.client.items(&[id]).await?;
    found
        .remove(&id)
        .ok_or_else(|| format!("Content {id} is not readable after the change").into())
}

/// `create<X>`.
pub async fn create(gq: &Gq, ctx: &ResolverContext<'_>, ti: usize) -> Result<Value> {
    let t = &gq.domain().types[ti];
    let language = language(gq, ctx)?;
    let parent = ctx.args.try_get("parentLocationId")?.i64()?;
    let parent = gq.location(parent).await?.unwrap_or_default();
    let Some(path) = text(get(&parent, "pathString")) else {
        return Err("parentLocationId: no such Location, or it may not be read".into());
    };
    let input = ctx.args.try_get("input")?.object()?;
    let fields = fields(ctx, &t.fields, &input, &language)?;
    let id = create_published(gq, t.id, path, &language, fields).await?;
    fresh_item(gq, id).await
}

/// Creates and publishes an item of the content type `type_id` under the Location at `path`
/// with `fields` (a REST body's); its content id.
async fn create_published(
    gq: &Gq,
    type_id: i64,
    path: &str,
    language: &str,
    fields: Json,
) -> Result<i64> {
    let cx = writer(gq, "createContent", "/content/objects".into())?;
    let prefix = &cx.dialect.wire.prefix;
    let body = json!({"ContentCreate": {
        "ContentType": {"_href": format!("{prefix}/content/types/{type_id}")},
        "mainLanguageCode": language,
        "LocationCreate": {"ParentLocation": {"_href": format!("{prefix}/content/locations{}", path.trim_end_matches('/'))}},
        "fields": fields,
    }});
    let body = decode_json::<ContentCreate>(&body.to_string(), "ContentCreate", &cx.dialect.wire)
        .map_err(|e| async_graphql::Error::new(e.description))?;
    let req = CreateContentRequest {
        publish: true,
        body,
        accept: CreateContentAccept::ContentInfo,
    };
    let id = match ContentApi::<Services>::create_content(gq.client.services.content(), &cx, req)
        .await
        .map_err(error)?
    {
        CreateContentResponse::CreatedContentInfo { body } => body.id,
        CreateContentResponse::CreatedContent { body } => body.id,
    };
    done(gq, &cx).await;
    Ok(id)
}

/// The content id an `update<X>` or `deleteContent` names (`id` or `contentId`).
fn content_id(ctx: &ResolverContext<'_>) -> Result<i64> {
    if let Some(id) = ctx.args.get("id").filter(|v| !v.is_null()) {
        let id = id.string()?;
        return from_global_id(id).ok_or_else(|| format!("'{id}' is not an id of this API").into());
    }
    match ctx.args.get("contentId").filter(|v| !v.is_null()) {
        Some(id) => Ok(id.i64()?),
        None => Err("Either id or contentId is required as an argument".into()),
    }
}

/// `update<X>`.
pub async fn update(gq: &Gq, ctx: &ResolverContext<'_>, ti: usize) -> Result<Value> {
    let t = &gq.domain().types[ti];
    let id = content_id(ctx)?;
    let language = language(gq, ctx)?;
    let current = gq.client.items(&[id]).await?.remove(&id);
    let Some(current) = current else {
        return Err(format!("Could not load content with ID {id}").into());
    };
    if int(get(&current, "__typeId")) != Some(t.id) {
        return Err(format!("Content {id} is not of the content type '{}'", t.identifier).into());
    }
    let input = ctx.args.try_get("input")?.object()?;
    let fields = fields(ctx, &t.fields, &input, &language)?;
    let services = &gq.client.services;
    let objects = format!("/content/objects/{id}");
    // The version to change: a draft named by `versionNo`, else a new draft.
    let asked = ctx.args.get("versionNo").filter(|v| !v.is_null());
    let draft_named = match &asked {
        Some(v) => {
            let no = v.i64()?;
            let cx = gq.client.calling("loadContentVersions")?;
            let LoadContentVersionsResponse::Ok { body } =
                ContentApi::<Services>::load_content_versions(
                    services.content(),
                    &cx,
                    LoadContentVersionsRequest { content_id: id },
                )
                .await
                .map_err(error)?;
            let v = body
                .version_item
                .iter()
                .find(|v| v.version_info.version_no == no)
                .ok_or_else(|| format!("Could not find version {no}"))?;
            Some((no, v.version_info.status == "DRAFT"))
        }
        None => None,
    };
    let (version_no, made) = match draft_named {
        Some((no, true)) => (no, false),
        Some((no, false)) => {
            let cx = writer(
                gq,
                "createDraftFromVersion",
                format!("{objects}/versions/{no}"),
            )?;
            let req = CreateDraftFromVersionRequest {
                content_id: id,
                version_no: no,
            };
            let CreateDraftFromVersionResponse::Created { body } =
                ContentApi::<Services>::create_draft_from_version(services.content(), &cx, req)
                    .await
                    .map_err(error)?;
            done(gq, &cx).await;
            (body.version_info.version_no, true)
        }
        None => {
            let cx = writer(
                gq,
                "createDraftFromCurrentVersion",
                format!("{objects}/currentversion"),
            )?;
            let req = CreateDraftFromCurrentVersionRequest { content_id: id };
            let CreateDraftFromCurrentVersionResponse::Created { body } =
                ContentApi::<Services>::create_draft_from_current_version(
                    services.content(),
                    &cx,
                    req,
                )
                .await
                .map_err(error)?;
            done(gq, &cx).await;
            (body.version_info.version_no, true)
        }
    };
    let version = format!("{objects}/versions/{version_no}");
    let result = async {
        let cx = writer(gq, "updateVersion", version.clone())?;
        let body = json!({"VersionUpdate": {"fields": fields}});
        let body =
            decode_json::<VersionUpdate>(&body.to_string(), "VersionUpdate", &cx.dialect.wire)
                .map_err(|e| async_graphql::Error::new(e.description))?;
        let req = UpdateVersionRequest {
            content_id: id,
            version_no,
            languages: None,
            if_match: None,
            body,
        };
        ContentApi::<Services>::update_version(services.content(), &cx, req)
            .await
            .map_err(error)?;
        done(gq, &cx).await;
        // A draft named by `versionNo` is saved, not published (the reference's).
        if made || asked.is_none() {
            let cx = writer(gq, "publishVersion", version.clone())?;
            let req = PublishVersionRequest {
                content_id: id,
                version_no,
            };
            ContentApi::<Services>::publish_version(services.content(), &cx, req)
                .await
                .map_err(error)?;
            done(gq, &cx).await;
        }
        Ok::<_, async_graphql::Error>(())
    }
    .await;
    if let Err(e) = result {
        if made {
            // The draft this update made goes again.
            if let Ok(cx) = writer(gq, "deleteContentVersion", version.clone()) {
                let req = DeleteContentVersionRequest {
                    content_id: id,
                    version_no,
                    if_match: None,
                };
                if ContentApi::<Services>::delete_content_version(services.content(), &cx, req)
                    .await
                    .is_ok()
                {
                    done(gq, &cx).await;
                }
            }
        }
        return Err(e);
    }
    fresh_item(gq, id).await
}

/// `deleteContent`.
pub async fn delete(gq: &Gq, ctx: &ResolverContext<'_>) -> Result<Value> {
    let id = content_id(ctx)?;
    let cx = writer(gq, "deleteContent", format!("/content/objects/{id}"))?;
    let req = DeleteContentRequest {
        content_id: id,
        if_match: None,
    };
    ContentApi::<Services>::delete_content(gq.client.services.content(), &cx, req)
        .await
        .map_err(error)?;
    done(gq, &cx).await;
    Ok(data::object([
        ("contentId", id.into()),
        ("id", data::global_id(id).into()),
    ]))
}

/// `createToken`: a JSON Web Token, as `POST /user/token/jwt` gives; a refused login is the
/// payload's message, as the reference answers it.
pub async fn create_token(gq: &Gq, ctx: &ResolverContext<'_>) -> Result<Value> {
    let username = ctx.args.try_get("username")?.string()?.to_string();
    let password = ctx.args.try_get("password")?.string()?.to_string();
    let cx = writer(gq, "createToken", "/user/token/jwt".into())?;
    let req = CreateTokenRequest {
        body: JwtInput { username, password },
    };
    match SessionsApi::<Services>::create_token(gq.client.services.sessions(), &cx, req).await {
        Ok(CreateTokenResponse::Ok { body }) => Ok(data::object([
            ("token", body.token.into()),
            ("message", Value::Null),
        ])),
        Err(e) => Ok(data::object([
            ("token", Value::Null),
            (
                "message",
                cairn_runtime::HttpError::from(e).description.into(),
            ),
        ])),
    }
}

/// `uploadFiles`: an item per file under `locationId`, as the reference's admin UI maps files
/// to content types: images to `image` (its `image` field), any other file to `file` (its
/// `file` field), named after the file. A file that cannot be stored is a warning.
pub async fn upload_files(gq: &Gq, ctx: &ResolverContext<'_>) -> Result<Value> {
    let language = language(gq, ctx)?;
    let parent = ctx.args.try_get("locationId")?.i64()?;
    let parent = gq.location(parent).await?.unwrap_or_default();
    let Some(path) = text(get(&parent, "pathString")).map(str::to_string) else {
        return Err("locationId: no such Location, or it may not be read".into());
    };
    let mut files = Vec::new();
    let mut warnings = Vec::new();
    let list = ctx.args.try_get("files")?.list()?;
    for item in list.iter() {
        let file = upload(ctx, item)?;
        let mime = file.content_type.clone().unwrap_or_else(|| {
            mime_guess::from_path(&file.filename)
                .first_or_octet_stream()
                .to_string()
        });
        let (identifier, field) = if mime.starts_with("image/") {
            ("image", "image")
        } else {
            ("file", "file")
        };
        let Some(t) = gq
            .domain()
            .types
            .iter()
            .find(|t| t.identifier == identifier)
        else {
            warnings.push(format!(
                "{}: there is no content type '{identifier}'",
                file.filename
            ));
            continue;
        };
        let value = json!({"fileName": file.filename, "data": base64(&file.content)});
        let fields = json!({"field": [
            {"fieldDefinitionIdentifier": "name", "languageCode": language, "fieldValue": file.filename},
            {"fieldDefinitionIdentifier": field, "languageCode": language, "fieldValue": value},
        ]});
        match create_published(gq, t.id, &path, &language, fields).await {
            Ok(id) => {
                let mut item = fresh_item(gq, id).await?;
                if let Value::Object(o) = &mut item {
                    o.insert(
                        async_graphql::Name::new("__typename"),
                        "UntypedContent".into(),
                    );
                }
                files.push(item);
            }
            Err(e) => warnings.push(format!("{}: {}", file.filename, e.message)),
        }
    }
    Ok(data::object([
        ("files", Value::List(files)),
        (
            "warnings",
            Value::List(warnings.into_iter().map(Value::from).collect()),
        ),
    ]))
}

#[cfg(test)]
mod tests {
    use super::markdown;
    use crate::field_types::richtext::from_html;

    #[test]
    fn markdown_becomes_html_and_deep_nesting_is_refused_not_a_crash() {
        let html = markdown("Some **bold** text\n\n| a | b |\n| - | - |\n| 1 | 2 |\n");
        let doc = from_html(&html).unwrap();
        assert!(
            doc.contains("<emphasis role=\"strong\">bold</emphasis>"),
            "{doc}"
        );
        assert!(doc.contains("<informaltable>"), "{doc}");
        // 100,000 quotes in one another: refused by the XML reader's depth limit.
        let deep = markdown(&format!("{}x", "> ".repeat(100_000)));
        assert!(from_html(&deep).is_err());
    }
}
