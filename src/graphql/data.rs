//! What GraphQL reads, read through the API's own operations (`crate::api`), as the caller:
//! every read is checked as a REST request to the same operation would be, lists are the
//! views' (filtered in SQL by the caller's Policies, counted the same way). Items and
//! Locations asked for one by one by sibling fields are loaded together (a `DataLoader` per
//! request, one view per batch), so a page costs a bounded number of statements. Answers are
//! turned into GraphQL values here: plain fields as they are, the rest kept under `__` keys
//! for the resolvers (`resolve.rs`).

use super::domain::Domain;
use crate::api::model::*;
use crate::api::routes::OPERATIONS;
use crate::api::traits::*;
use crate::auth::Caller;
use crate::mount::Services;
use async_graphql::dataloader::{DataLoader, HashMapCache, Loader};
use async_graphql::indexmap::IndexMap;
use async_graphql::{Name, Value};
use base64::Engine;
use cairn_runtime::{HashValue, HttpError, Timestamp};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

pub type Result<T> = std::result::Result<T, async_graphql::Error>;

/// An error of an operation as GraphQL reports it: the REST answer's message.
pub fn error(e: crate::error::Error) -> async_graphql::Error {
    let e = HttpError::from(e);
    async_graphql::Error::new(e.description)
}

/// A GraphQL object value of `fields`.
pub fn object<const N: usize>(fields: [(&str, Value); N]) -> Value {
    Value::Object(
        fields
            .into_iter()
            .map(|(k, v)| (Name::new(k), v))
            .collect::<IndexMap<_, _>>(),
    )
}

/// The field `key` of an object value.
pub fn get<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    match v {
        Value::Object(o) => o.get(key),
        _ => None,
    }
}

pub fn int(v: Option<&Value>) -> Option<i64> {
    match v {
        Some(Value::Number(n)) => n.as_i64(),
        _ => None,
    }
}

pub fn text(v: Option<&Value>) -> Option<&str> {
    match v {
        Some(Value::String(s)) => Some(s.as_str()),
        _ => None,
    }
}

fn opt<T: Into<Value>>(v: Option<T>) -> Value {
    v.map_or(Value::Null, Into::into)
}

/// A date as the `DateTime` type holds it.
pub fn date(ts: Option<&Timestamp>) -> Value {
    match ts {
        Some(t) => object([("timestamp", t.0.into())]),
        None => Value::Null,
    }
}

/// The last number of an href (`/content/types/5` → 5, `/content/locations/1/2/59` → 59).
pub fn href_id(href: &str) -> Option<i64> {
    href.trim_end_matches('/').rsplit('/').next()?.parse().ok()
}

/// The global id the reference gives an item (Relay: base64 of `DomainContent:<id>`).
pub fn global_id(content_id: i64) -> String {
    base64::engine::general_purpose::STANDARD.encode(format!("DomainContent:{content_id}"))
}

/// The content id of a global id.
pub fn from_global_id(id: &str) -> Option<i64> {
    let raw = base64::engine::general_purpose::STANDARD.decode(id).ok()?;
    let raw = String::from_utf8(raw).ok()?;
    raw.split_once(':')?.1.parse().ok()
}

/// A value of the REST API as a GraphQL value.
pub fn from_hash(v: &HashValue) -> Value {
    match v {
        HashValue::Null => Value::Null,
        HashValue::Bool(b) => Value::Boolean(*b),
        HashValue::Int(i) => (*i).into(),
        HashValue::Float(f) => f.0.into(),
        HashValue::String(s) | HashValue::Href(s) => Value::String(s.clone()),
        HashValue::List(l) => Value::List(l.iter().map(from_hash).collect()),
        HashValue::Map(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (Name::new(k), from_hash(v)))
                .collect(),
        ),
    }
}

fn lang_map(m: &cairn_runtime::LangMap) -> Value {
    Value::Object(
        m.0.iter()
            .map(|(l, t)| (Name::new(l), Value::String(t.clone())))
            .collect(),
    )
}

/// A version's status as the reference's `VersionInfo` numbers it.
fn status(s: &str) -> i64 {
    match s {
        "DRAFT" => 0,
        "PUBLISHED" => 1,
        _ => 3,
    }
}

/// A version (`Version`).
pub fn version_map(v: &VersionInfo) -> Value {
    let languages: Vec<Value> = v
        .language_codes
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| Value::String(s.to_string()))
        .collect();
    object([
        ("id", v.id.into()),
        ("versionNumber", v.version_no.into()),
        (
            "names",
            Value::List(v.names.0.iter().map(|(_, n)| n.clone().into()).collect()),
        ),
        ("__names", lang_map(&v.names)),
        ("modificationDate", date(Some(&v.modification_date))),
        ("creationDate", date(Some(&v.creation_date))),
        ("creatorId", opt(href_id(&v.creator))),
        ("status", status(&v.status).into()),
        (
            "initialLanguageCode",
            v.initial_language_code.clone().into(),
        ),
        ("languageCodes", Value::List(languages)),
    ])
}

/// A content item with its current version: the item (`<X>Item`, `UntypedContent`), with its
/// content info (`Content`) inside.
pub fn item_map(domain: &Domain, c: &Content) -> Value {
    let type_id = href_id(&c.content_type).unwrap_or_default();
    let version = &c.current_version.version;
    let info = object([
        ("id", c.id.into()),
        ("contentTypeId", type_id.into()),
        ("name", c.name.clone().into()),
        ("currentVersionNo", c.current_version_no.into()),
        ("published", (c.status == "PUBLISHED").into()),
        ("ownerId", opt(href_id(&c.owner))),
        ("modificationDate", date(c.last_modification_date.as_ref())),
        ("publishedDate", date(c.published_date.as_ref())),
        ("alwaysAvailable", c.always_available.into()),
        ("remoteId", c.remote_id.clone().into()),
        ("mainLanguageCode", c.main_language_code.clone().into()),
        (
            "mainLocationId",
            opt(c.main_location.as_deref().and_then(href_id)),
        ),
        ("__sectionId", opt(href_id(&c.section))),
        ("__version", version_map(&version.version_info)),
    ]);
    let mut fields: IndexMap<Name, Value> = IndexMap::new();
    for f in &version.fields.field {
        let entry = fields
            .entry(Name::new(&f.field_definition_identifier))
            .or_insert_with(|| Value::Object(IndexMap::new()));
        if let Value::Object(langs) = entry {
            langs.insert(Name::new(&f.language_code), from_hash(&f.field_value));
        }
    }
    let t = &version.thumbnail;
    let thumbnail = match &t.resource {
        Some(uri) => object([
            ("uri", uri.clone().into()),
            ("width", opt(t.width)),
            ("height", opt(t.height)),
            ("alternativeText", Value::String(String::new())),
            ("mimeType", opt(t.mime_type.clone())),
        ]),
        None => Value::Null,
    };
    object([
        ("__typename", domain.item_of(type_id).into()),
        ("id", global_id(c.id).into()),
        ("__contentId", c.id.into()),
        ("__typeId", type_id.into()),
        ("_name", c.translated_name.clone().into()),
        // Also what `_info` and `_content` read (`resolve::read`).
        ("_contentInfo", info),
        ("_thumbnail", thumbnail),
        ("__fields", Value::Object(fields)),
        (
            "__language",
            version.version_info.initial_language_code.clone().into(),
        ),
        ("__mainLanguage", c.main_language_code.clone().into()),
        (
            "reason",
            "This content type isn't part of the schema.".into(),
        ),
    ])
}

/// A Location (`Location`), with its content item when the answer embeds it.
pub fn location_map(domain: &Domain, l: &Location) -> Value {
    let path: Vec<Value> = l
        .path_string
        .split('/')
        .filter_map(|p| p.parse::<i64>().ok())
        .map(Value::from)
        .collect();
    let item = match &l.content_info.content {
        LocationContent::Content(c) => item_map(domain, c),
        LocationContent::ContentInfo(_) => Value::Null,
    };
    object([
        ("id", l.id.into()),
        ("contentId", l.content.into()),
        ("priority", l.priority.into()),
        ("hidden", l.hidden.into()),
        ("invisible", l.invisible.into()),
        ("remoteId", l.remote_id.clone().into()),
        (
            "parentLocationId",
            opt(l.parent_location.as_deref().and_then(href_id)),
        ),
        ("pathString", l.path_string.clone().into()),
        ("path", Value::List(path)),
        ("depth", l.depth.into()),
        ("__item", item),
    ])
}

/// A relation of the REST API as a `ContentRelation` (its ends loaded when asked for).
pub fn relation_map(r: &Relation) -> Value {
    let id_or_null = |href: &str| href_id(href).map_or(Value::Null, Value::from);
    let kind = match r.relation_type.as_str() {
        "EMBED" => "embed",
        "LINK" => "link",
        "ATTRIBUTE" | "FIELD" => "field",
        "ASSET" => "asset",
        _ => "common",
    };
    object([
        (
            "sourceFieldDefinitionIdentifier",
            (r.source_field_definition_identifier.clone()).map_or(Value::Null, Value::from),
        ),
        ("type", Value::Enum(async_graphql::Name::new(kind))),
        ("__sourceId", id_or_null(&r.source_content)),
        ("__destinationId", id_or_null(&r.destination_content)),
    ])
}

/// A Location's URL alias of the REST API as a `LocationUrlAlias` (its Location loaded when
/// asked for).
pub fn url_alias_map(a: &UrlAlias, location_id: i64) -> Value {
    let codes = (a.language_codes.split(','))
        .filter(|c| !c.is_empty())
        .map(|c| Value::from(c.to_string()));
    object([
        ("__typename", "LocationUrlAlias".into()),
        ("id", a.id.clone().into()),
        ("path", a.path.clone().into()),
        ("languageCodes", Value::List(codes.collect())),
        ("alwaysAvailable", a.always_available.into()),
        ("isHistory", a.is_history.into()),
        ("isCustom", a.custom.into()),
        ("forward", a.forward.into()),
        ("__locationId", location_id.into()),
    ])
}

/// A section (`Section`).
pub fn section_map(s: &Section) -> Value {
    object([
        ("id", s.section_id.into()),
        ("identifier", s.identifier.clone().into()),
        ("name", s.name.clone().into()),
    ])
}

fn sort_number(field: &str) -> i64 {
    // The reference's Location::SORT_FIELD_* numbers.
    match field {
        "PATH" => 1,
        "PUBLISHED" => 2,
        "MODIFIED" => 3,
        "SECTION" => 4,
        "DEPTH" => 5,
        "CLASS_IDENTIFIER" => 6,
        "CLASS_NAME" => 7,
        "PRIORITY" => 8,
        "NAME" => 9,
        "NODE_ID" => 12,
        "CONTENTOBJECT_ID" => 13,
        _ => 0,
    }
}

/// A Field definition (`FieldDefinition` and its kinds), its settings and constraints as the
/// reference's types read them.
pub fn field_definition_map(f: &FieldDefinition) -> Value {
    let validators = from_hash(&f.validator_configuration);
    let settings = from_hash(&f.field_settings);
    let v = |validator: &str, key: &str| {
        get(&validators, validator)
            .and_then(|x| get(x, key))
            .cloned()
            .unwrap_or(Value::Null)
    };
    let constraints = object([
        ("minLength", v("StringLengthValidator", "minStringLength")),
        ("maxLength", v("StringLengthValidator", "maxStringLength")),
        ("minValue", v("FloatValueValidator", "minFloatValue")),
        ("maxValue", v("FloatValueValidator", "maxFloatValue")),
        (
            "minIntegerValue",
            v("IntegerValueValidator", "minIntegerValue"),
        ),
        (
            "maxIntegerValue",
            v("IntegerValueValidator", "maxIntegerValue"),
        ),
        ("maxFileSize", v("FileSizeValidator", "maxFileSize")),
        (
            "selectionLimit",
            v("RelationListValueValidator", "selectionLimit"),
        ),
    ]);
    let options = match get(&settings, "options") {
        Some(Value::List(l)) => Value::List(
            l.iter()
                .enumerate()
                .map(|(i, label)| object([("index", (i as i64).into()), ("label", label.clone())]))
                .collect(),
        ),
        Some(Value::Object(o)) => Value::List(
            o.iter()
                .map(|(i, label)| {
                    object([
                        (
                            "index",
                            i.as_str().parse::<i64>().map_or(Value::Null, Value::from),
                        ),
                        ("label", label.clone()),
                    ])
                })
                .collect(),
        ),
        _ => Value::Null,
    };
    let method = match int(get(&settings, "selectionMethod")) {
        Some(0) => "browse",
        _ => "dropdown",
    };
    let field_settings = object([
        (
            "isMultiple",
            get(&settings, "isMultiple").cloned().unwrap_or(Value::Null),
        ),
        ("options", options),
        (
            "mediaType",
            get(&settings, "mediaType").cloned().unwrap_or(Value::Null),
        ),
        ("selectionMethod", method.into()),
        (
            "selectionDefaultLocation",
            get(&settings, "selectionDefaultLocation")
                .cloned()
                .unwrap_or(Value::Null),
        ),
        (
            "selectionContentTypes",
            get(&settings, "selectionContentTypes")
                .cloned()
                .unwrap_or(Value::Null),
        ),
        // A matrix's (`MatrixFieldDefinitionSettings`).
        (
            "columns",
            match get(&settings, "columns") {
                Some(Value::Object(o)) => Value::List(o.values().cloned().collect()),
                Some(c) => c.clone(),
                None => Value::Null,
            },
        ),
        (
            "minimumRows",
            get(&settings, "minimum_rows")
                .cloned()
                .unwrap_or(Value::Null),
        ),
    ]);
    object([
        ("id", f.id.into()),
        ("__names", lang_map(&f.names)),
        ("__descriptions", lang_map(&f.descriptions)),
        ("identifier", f.identifier.clone().into()),
        ("fieldGroup", f.field_group.clone().into()),
        ("position", f.position.into()),
        ("fieldTypeIdentifier", f.field_type.clone().into()),
        ("isThumbnail", false.into()),
        ("isTranslatable", f.is_translatable.into()),
        ("isRequired", f.is_required.into()),
        ("isSearchable", f.is_searchable.into()),
        ("defaultValue", from_hash(&f.default_value)),
        ("constraints", constraints),
        ("settings", field_settings),
    ])
}

/// A content type (`ContentType`), with a field per Field definition under its GraphQL name
/// when it is a type of the domain schema (`<X>ItemType`).
pub fn content_type_map(domain: &Domain, t: &ContentType) -> Value {
    let definitions: Vec<Value> = t
        .field_definitions
        .field_definition
        .iter()
        .map(field_definition_map)
        .collect();
    let mut map = match object([
        ("id", t.id.into()),
        ("__names", lang_map(&t.names)),
        ("__descriptions", lang_map(&t.descriptions)),
        ("fieldDefinitions", Value::List(definitions.clone())),
        ("status", status_of_type(&t.status).into()),
        ("identifier", t.identifier.clone().into()),
        (
            "names",
            Value::List(t.names.0.iter().map(|(_, n)| n.clone().into()).collect()),
        ),
        ("creationDate", date(Some(&t.creation_date))),
        ("modificationDate", date(Some(&t.modification_date))),
        ("creatorId", t.creator.into()),
        ("modifierId", t.modifier.into()),
        ("remoteId", t.remote_id.clone().into()),
        ("urlAliasSchema", opt(t.url_alias_schema.clone())),
        ("nameSchema", opt(t.name_schema.clone())),
        ("isContainer", t.is_container.into()),
        ("mainLanguageCode", t.main_language_code.clone().into()),
        ("defaultAlwaysAvailable", t.default_always_available.into()),
        (
            "defaultSortField",
            sort_number(&t.default_sort_field).into(),
        ),
        (
            "defaultSortOrder",
            i64::from(t.default_sort_order == "ASC").into(),
        ),
    ]) {
        Value::Object(m) => m,
        _ => unreachable!("object() makes objects"),
    };
    if let Some(&ti) = domain.by_id.get(&t.id) {
        for (f, d) in domain.types[ti].fields.iter().zip(&definitions) {
            map.insert(Name::new(&f.name), d.clone());
        }
        // Field definitions by identifier (the domain's own list may differ in order).
        for d in &definitions {
            if let Some(id) = text(get(d, "identifier"))
                && let Some(f) = domain.types[ti].fields.iter().find(|f| f.identifier == id)
            {
                map.insert(Name::new(&f.name), d.clone());
            }
        }
    }
    // `_info` of an `<X>ItemType` is the content type itself (`resolve::resolver`).
    Value::Object(map)
}

fn status_of_type(s: &str) -> i64 {
    match s {
        "DEFINED" => 0,
        "DRAFT" => 1,
        _ => 2,
    }
}

/// A content type group (`ContentTypeGroup`).
pub fn group_map(g: &ContentTypeGroup) -> Value {
    object([
        ("id", g.id.into()),
        ("identifier", g.identifier.clone().into()),
        ("creationDate", date(Some(&g.created))),
        ("modificationDate", date(Some(&g.modified))),
        ("creatorId", g.creator.into()),
        ("modifierId", g.modifier.into()),
    ])
}

/// An Object state group (`ObjectStateGroup`).
pub fn state_group_map(g: &ObjectStateGroup) -> Value {
    object([
        ("id", g.id.into()),
        ("identifier", g.identifier.clone().into()),
        (
            "defaultLanguageCode",
            g.default_language_code.clone().into(),
        ),
        ("languageCodes", codes(&g.language_codes)),
    ])
}

/// An Object state (`ObjectState`).
pub fn state_map(s: &ObjectState) -> Value {
    object([
        ("id", s.id.into()),
        ("identifier", s.identifier.clone().into()),
        ("priority", s.priority.into()),
        ("languageCodes", codes(&s.language_codes)),
        ("__groupId", opt(href_id(&s.object_state_group))),
    ])
}

fn codes(list: &str) -> Value {
    Value::List(
        list.split(',')
            .filter(|s| !s.is_empty())
            .map(|s| s.to_string().into())
            .collect(),
    )
}

/// What a request's resolvers read through: the services, the caller, the schema's domain.
pub struct Client {
    pub services: Arc<Services>,
    pub cx: Caller,
    pub domain: Arc<Domain>,
}

/// A view's hits, with the count of all that match.
pub struct Hits {
    pub count: i64,
    pub hits: Vec<SearchHitObject>,
}

impl Client {
    /// The caller of the operation `id`, refused as its route would refuse it.
    pub fn calling(&self, id: &str) -> Result<Caller> {
        static BY_ID: OnceLock<HashMap<&'static str, &'static cairn_runtime::http::Operation>> =
            OnceLock::new();
        let ops = BY_ID.get_or_init(|| OPERATIONS.iter().map(|o| (o.id, o)).collect());
        let op = ops
            .get(id)
            .ok_or_else(|| async_graphql::Error::new(format!("no operation {id}")))?;
        self.cx.calling(op).map_err(error)
    }

    /// A content (`location` false) or Location view: `filter`, sorted by `sort`, a window of
    /// `limit` from `offset`.
    pub async fn search(
        &self,
        location: bool,
        filter: HashValue,
        sort: Vec<(String, HashValue)>,
        limit: i64,
        offset: i64,
    ) -> Result<Hits> {
        let query = ViewQueryInput {
            filter: Some(filter),
            query: None,
            limit: Some(limit),
            offset: Some(offset),
            sort_clauses: Some(HashValue::Map(sort)),
            facet_builders: None,
            aggregations: None,
        };
        let body = ViewInput {
            identifier: "graphql".into(),
            language_code: None,
            use_always_available: None,
            query: None,
            content_query: (!location).then(|| query.clone()),
            location_query: location.then_some(query),
        };
        let cx = self.calling("createView")?;
        let CreateViewResponse::Ok { body } = ViewsApi::<Services>::create_view(
            self.services.views(),
            &cx,
            CreateViewRequest { body },
        )
        .await
        .map_err(error)?;
        Ok(Hits {
            count: body.result.count,
            hits: body
                .result
                .search_hits
                .search_hit
                .into_iter()
                .map(|h| h.value)
                .collect(),
        })
    }

    /// The items of the content ids `ids` the caller may read.
    pub async fn items(&self, ids: &[i64]) -> Result<HashMap<i64, Value>> {
        let filter = criterion("ContentIdCriterion", ids);
        let found = self
            .search(false, filter, Vec::new(), ids.len() as i64, 0)
            .await?;
        Ok(found
            .hits
            .iter()
            .filter_map(|h| match h {
                SearchHitObject::Content(c) => Some((c.id, item_map(&self.domain, c))),
                SearchHitObject::Location(_) => None,
            })
            .collect())
    }

    /// The Locations `ids` the caller may read. The tree's root (Location 1, which holds no
    /// content item, so no view finds it) is loaded as the REST API loads it, as the
    /// reference's `loadLocation` gives it.
    pub async fn locations(&self, ids: &[i64]) -> Result<HashMap<i64, Value>> {
        let filter = criterion("LocationIdCriterion", ids);
        let found = self
            .search(true, filter, Vec::new(), ids.len() as i64, 0)
            .await?;
        let mut out: HashMap<i64, Value> = (found.hits.iter())
            .filter_map(|h| match h {
                SearchHitObject::Location(l) => Some((l.id, location_map(&self.domain, l))),
                SearchHitObject::Content(_) => None,
            })
            .collect();
        if ids.contains(&crate::tree::ROOT) && !out.contains_key(&crate::tree::ROOT) {
            let cx = self.calling("loadLocation")?;
            let req = LoadLocationRequest {
                location_path: crate::tree::ROOT.to_string(),
            };
            match LocationsApi::<Services>::load_location(self.services.locations(), &cx, req).await
            {
                Ok(LoadLocationResponse::Ok { body, .. }) => {
                    out.insert(body.id, location_map(&self.domain, &body));
                }
                // Not there, or not the caller's to read: as any Location a view leaves out.
                Err(
                    crate::error::Error::NotFound { .. } | crate::error::Error::Unauthorized(_),
                ) => {}
                Err(e) => return Err(error(e)),
            }
        }
        Ok(out)
    }
}

/// Locations read per view when loading the Locations of content items.
const LOCATIONS_PAGE: i64 = 1000;

impl Client {
    /// The Locations the caller may read of the content items `ids`, by content id.
    pub async fn locations_of(&self, ids: &[i64]) -> Result<HashMap<i64, Vec<Value>>> {
        let mut out: HashMap<i64, Vec<Value>> = HashMap::new();
        let sort = vec![(
            "LocationId".to_string(),
            HashValue::String("ascending".into()),
        )];
        let mut offset = 0;
        loop {
            let filter = criterion("ContentIdCriterion", ids);
            let found = self
                .search(true, filter, sort.clone(), LOCATIONS_PAGE, offset)
                .await?;
            let n = found.hits.len() as i64;
            for h in &found.hits {
                if let SearchHitObject::Location(l) = h {
                    out.entry(l.content)
                        .or_default()
                        .push(location_map(&self.domain, l));
                }
            }
            offset += n;
            if n < LOCATIONS_PAGE || offset >= found.count {
                return Ok(out);
            }
        }
    }

    /// The main URL path of each Location of `ids` that has one (the caller's right to read
    /// them is checked by whoever asks: the Locations are loaded first).
    pub async fn urls(&self, ids: &[i64]) -> Result<HashMap<i64, String>> {
        crate::url_aliases::main_paths(self.cx.reader(), ids)
            .await
            .map_err(error)
    }

    /// The current URL aliases of the Locations of `keys` (Location id, custom or not), as
    /// `LocationUrlAlias` lists (the caller's right to read each Location is checked by
    /// whoever asks: the Locations are loaded first).
    pub async fn url_aliases(&self, keys: &[(i64, bool)]) -> Result<HashMap<(i64, bool), Value>> {
        let cx = self.calling("listLocationURLAliases")?;
        let mut out = HashMap::new();
        for custom in [false, true] {
            let ids: Vec<i64> = (keys.iter())
                .filter(|(_, c)| *c == custom)
                .map(|(id, _)| *id)
                .collect();
            if ids.is_empty() {
                continue;
            }
            let mut found = (self.services.url_aliases())
                .of_locations(&cx, &ids, custom)
                .await
                .map_err(error)?;
            for id in ids {
                let list = found.remove(&id).unwrap_or_default();
                let list = list.iter().map(|a| url_alias_map(a, id)).collect();
                out.insert((id, custom), Value::List(list));
            }
        }
        Ok(out)
    }

    /// The relations of the published current versions of the content items `ids` (as
    /// `ContentRelation` lists).
    pub async fn relations(&self, ids: &[i64]) -> Result<HashMap<i64, Value>> {
        let found = (self.services.content())
            .current_relations(&self.cx, ids)
            .await
            .map_err(error)?;
        Ok(found
            .into_iter()
            .map(|(id, l)| (id, Value::List(l.iter().map(relation_map).collect())))
            .collect())
    }

    /// The reverse relations of the content items `ids` (as `ContentRelation` lists), `None`
    /// for those the caller may not list them of.
    pub async fn reverse_relations(&self, ids: &[i64]) -> Result<HashMap<i64, Option<Value>>> {
        let found = (self.services.content())
            .reverse_relations(&self.cx, ids)
            .await
            .map_err(error)?;
        Ok(found
            .into_iter()
            .map(|(id, list)| {
                let list = list.map(|l| Value::List(l.iter().map(relation_map).collect()));
                (id, list)
            })
            .collect())
    }
}

/// `{name: "id,id,…"}`: one criterion matching any of `ids` (a list would be one criterion
/// per id, all of which must hold).
pub fn criterion(name: &str, ids: &[i64]) -> HashValue {
    let ids: Vec<String> = ids.iter().map(i64::to_string).collect();
    HashValue::Map(vec![(name.to_string(), HashValue::String(ids.join(",")))])
}

/// Loads items by content id, a batch at a time.
pub struct Items(pub Arc<Client>);
/// Loads Locations by id, a batch at a time.
pub struct Locations(pub Arc<Client>);

/// Loads the Locations of content items, a batch of items at a time.
pub struct LocationsOf(pub Arc<Client>);

/// Loads the main URL paths of Locations, a batch at a time.
pub struct Urls(pub Arc<Client>);

/// Loads the URL aliases of Locations (custom or not), a batch at a time.
pub struct UrlAliases(pub Arc<Client>);

/// Loads the reverse relations of content items, a batch at a time.
pub struct ReverseRelations(pub Arc<Client>);

/// Loads the relations of published content items, a batch at a time.
pub struct Relations(pub Arc<Client>);

/// A loader's error (shared by the fields that waited for the load) as a field's own.
pub fn unshared(e: Arc<async_graphql::Error>) -> async_graphql::Error {
    async_graphql::Error::new(e.message.clone())
}

/// A loaded value, shared by every field that reads it (never copied).
pub type Shared = Arc<Value>;

fn shared(found: HashMap<i64, Value>) -> HashMap<i64, Shared> {
    found.into_iter().map(|(k, v)| (k, Arc::new(v))).collect()
}

impl Loader<i64> for Items {
    type Value = Shared;
    type Error = Arc<async_graphql::Error>;

    async fn load(&self, keys: &[i64]) -> std::result::Result<HashMap<i64, Shared>, Self::Error> {
        self.0.items(keys).await.map(shared).map_err(Arc::new)
    }
}

impl Loader<i64> for Locations {
    type Value = Shared;
    type Error = Arc<async_graphql::Error>;

    async fn load(&self, keys: &[i64]) -> std::result::Result<HashMap<i64, Shared>, Self::Error> {
        self.0.locations(keys).await.map(shared).map_err(Arc::new)
    }
}

impl Loader<i64> for LocationsOf {
    type Value = Arc<Vec<Shared>>;
    type Error = Arc<async_graphql::Error>;

    async fn load(
        &self,
        keys: &[i64],
    ) -> std::result::Result<HashMap<i64, Self::Value>, Self::Error> {
        let found = self.0.locations_of(keys).await.map_err(Arc::new)?;
        Ok(keys
            .iter()
            .map(|k| {
                let all = found.get(k).map_or(Vec::new(), |ls| {
                    ls.iter().map(|l| Arc::new(l.clone())).collect()
                });
                (*k, Arc::new(all))
            })
            .collect())
    }
}

impl Loader<i64> for Urls {
    type Value = Arc<str>;
    type Error = Arc<async_graphql::Error>;

    async fn load(&self, keys: &[i64]) -> std::result::Result<HashMap<i64, Arc<str>>, Self::Error> {
        let found = self.0.urls(keys).await.map_err(Arc::new)?;
        Ok(found.into_iter().map(|(k, v)| (k, v.into())).collect())
    }
}

impl Loader<(i64, bool)> for UrlAliases {
    type Value = Shared;
    type Error = Arc<async_graphql::Error>;

    async fn load(
        &self,
        keys: &[(i64, bool)],
    ) -> std::result::Result<HashMap<(i64, bool), Shared>, Self::Error> {
        let found = self.0.url_aliases(keys).await.map_err(Arc::new)?;
        Ok(found.into_iter().map(|(k, v)| (k, Arc::new(v))).collect())
    }
}

impl Loader<i64> for Relations {
    type Value = Shared;
    type Error = Arc<async_graphql::Error>;

    async fn load(&self, keys: &[i64]) -> std::result::Result<HashMap<i64, Shared>, Self::Error> {
        self.0.relations(keys).await.map(shared).map_err(Arc::new)
    }
}

impl Loader<i64> for ReverseRelations {
    type Value = Arc<Option<Value>>;
    type Error = Arc<async_graphql::Error>;

    async fn load(
        &self,
        keys: &[i64],
    ) -> std::result::Result<HashMap<i64, Self::Value>, Self::Error> {
        let found = self.0.reverse_relations(keys).await.map_err(Arc::new)?;
        Ok(found.into_iter().map(|(k, v)| (k, Arc::new(v))).collect())
    }
}

/// A request's reading state: its client, its loaders, and answers kept by key (sections,
/// content types) for the request's length.
pub struct Gq {
    pub client: Arc<Client>,
    pub items: DataLoader<Items, HashMapCache>,
    pub locations: DataLoader<Locations, HashMapCache>,
    pub locations_of: DataLoader<LocationsOf, HashMapCache>,
    pub urls: DataLoader<Urls, HashMapCache>,
    pub url_aliases: DataLoader<UrlAliases, HashMapCache>,
    pub relations: DataLoader<Relations, HashMapCache>,
    pub reverse_relations: DataLoader<ReverseRelations, HashMapCache>,
    kept: Mutex<Kept>,
}

/// Answers kept for a request, each loaded once.
type Kept = HashMap<String, Arc<tokio::sync::OnceCell<Shared>>>;

impl Gq {
    pub fn new(client: Client) -> Gq {
        let client = Arc::new(client);
        let spawn = |f| {
            tokio::spawn(f);
        };
        Gq {
            items: DataLoader::with_cache(Items(client.clone()), spawn, HashMapCache::default()),
            locations: DataLoader::with_cache(
                Locations(client.clone()),
                spawn,
                HashMapCache::default(),
            ),
            locations_of: DataLoader::with_cache(
                LocationsOf(client.clone()),
                spawn,
                HashMapCache::default(),
            ),
            urls: DataLoader::with_cache(Urls(client.clone()), spawn, HashMapCache::default()),
            url_aliases: DataLoader::with_cache(
                UrlAliases(client.clone()),
                spawn,
                HashMapCache::default(),
            ),
            relations: DataLoader::with_cache(
                Relations(client.clone()),
                spawn,
                HashMapCache::default(),
            ),
            reverse_relations: DataLoader::with_cache(
                ReverseRelations(client.clone()),
                spawn,
                HashMapCache::default(),
            ),
            client,
            kept: Mutex::default(),
        }
    }

    pub fn domain(&self) -> &Domain {
        &self.client.domain
    }

    /// The item of content `id`, when the caller may read it.
    pub async fn item(&self, id: i64) -> Result<Option<Shared>> {
        self.items.load_one(id).await.map_err(unshared)
    }

    /// The Location `id`, when the caller may read it.
    pub async fn location(&self, id: i64) -> Result<Option<Shared>> {
        self.locations.load_one(id).await.map_err(unshared)
    }

    /// The value kept under `key`, else loaded by `load` and kept; sibling fields asking for
    /// it at once wait for the one load.
    pub async fn kept(
        &self,
        key: String,
        load: impl AsyncFnOnce(&Client) -> Result<Value>,
    ) -> Result<Shared> {
        let cell = self.lock().entry(key).or_default().clone();
        cell.get_or_try_init(async || load(&self.client).await.map(Arc::new))
            .await
            .cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A GraphQL value as a value of the REST API.
pub fn to_hash(v: &Value) -> HashValue {
    match v {
        Value::Null => HashValue::Null,
        Value::Boolean(b) => HashValue::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => HashValue::Int(i),
            None => HashValue::Float(cairn_runtime::Float(n.as_f64().unwrap_or_default())),
        },
        Value::String(s) => HashValue::String(s.clone()),
        Value::Enum(n) => HashValue::String(n.to_string()),
        Value::List(l) => HashValue::List(l.iter().map(to_hash).collect()),
        Value::Object(o) => {
            HashValue::Map(o.iter().map(|(k, v)| (k.to_string(), to_hash(v))).collect())
        }
        Value::Binary(_) => HashValue::Null,
    }
}
