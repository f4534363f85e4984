//! The domain schema, made from the repository's content types as ibexa/graphql 4.6's schema
//! workers make it (`Schema/Domain/Content/Worker/*`): `Domain` (the query root) with a field
//! per content type group, an `ItemGroup<X>` per group with a connection and a single item per
//! content type, `<X>Item` with a field per Field definition, `<X>ItemType`,
//! `<X>ItemConnection`, and the enums of content type identifiers, languages and image
//! variations. Identifiers GraphQL cannot name are skipped with a warning, as there.

use super::names;
use cairn_store::entity::{
    content_type, content_type_group, content_type_group_link, field_definition, language,
};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::fmt::Write;

/// A content type as the schema shows it.
#[derive(Debug)]
pub struct TypeDesc {
    pub id: i64,
    pub identifier: String,
    /// `<X>Item`.
    pub item: String,
    pub fields: Vec<FieldDesc>,
}

/// A Field definition as the schema shows it.
#[derive(Debug, Clone)]
pub struct FieldDesc {
    pub identifier: String,
    /// Its GraphQL field name.
    pub name: String,
    /// The full field type identifier (`ezstring`).
    pub field_type: String,
    /// The GraphQL type of its value (`String`, `[Item]`, ...).
    pub value_type: String,
    /// Whether a new item must have it.
    pub required: bool,
    /// A selection's options: (index, label).
    pub options: Vec<(i64, String)>,
    /// A matrix's column identifiers (those GraphQL can name).
    pub columns: Vec<String>,
}

/// What a field of a generated type resolves.
#[derive(Debug, Clone)]
pub enum Role {
    /// `Domain.<group>`: the group.
    Group(i64),
    /// `ItemGroup<X>._types`.
    GroupTypes,
    /// `ItemGroup<X>Types.<type>`: the content type.
    TypeInfo(usize),
    /// `ItemGroup<X>.<type>`: one item of the type, by its arguments.
    ItemOfType(usize),
    /// `ItemGroup<X>.<types>`: a connection of the type's items.
    ItemsOfType(usize),
    /// `<X>Item.<field>`: a field's value.
    FieldValue(usize, usize),
    /// `ItemMutation.create<X>`.
    Create(usize),
    /// `ItemMutation.update<X>`.
    Update(usize),
}

/// The domain schema: its SDL, what each generated field resolves, the content types.
#[derive(Debug, Default)]
pub struct Domain {
    pub sdl: String,
    pub types: Vec<TypeDesc>,
    pub by_id: HashMap<i64, usize>,
    pub roles: HashMap<(String, String), Role>,
    /// GraphQL enum name → language code (`eng_GB` → `eng-GB`).
    pub languages: HashMap<String, String>,
}

impl Domain {
    /// The item type name of the content type `id` (`UntypedItem` when it has none).
    pub fn item_of(&self, type_id: i64) -> &str {
        self.by_id
            .get(&type_id)
            .map_or("UntypedItem", |&i| self.types[i].item.as_str())
    }
}

/// The GraphQL name of a language code (`eng-GB` → `eng_GB`): a name may not hold `-`.
pub fn language_name(code: &str) -> String {
    code.replace('-', "_")
}

/// Reads the content types, groups and languages on `db` and makes the domain schema, with the
/// image variations `variations`.
pub async fn load(
    db: &impl cairn_store::Connection,
    variations: &[String],
) -> Result<Domain, sea_orm::DbErr> {
    let groups = content_type_group::Entity::find()
        .order_by_asc(content_type_group::Column::Id)
        .all(db)
        .await?;
    let types = content_type::Entity::find()
        .filter(content_type::Column::Status.eq(0))
        .order_by_asc(content_type::Column::Id)
        .all(db)
        .await?;
    let links = content_type_group_link::Entity::find()
        .filter(content_type_group_link::Column::Status.eq(0))
        .all(db)
        .await?;
    let fields = field_definition::Entity::find()
        .filter(field_definition::Column::Status.eq(0))
        .order_by_asc(field_definition::Column::Position)
        .order_by_asc(field_definition::Column::Id)
        .all(db)
        .await?;
    let languages = language::Entity::find()
        .order_by_asc(language::Column::Id)
        .all(db)
        .await?;
    Ok(make(
        &groups, &types, &links, &fields, &languages, variations,
    ))
}

fn json(text: &str) -> Json {
    serde_json::from_str(text).unwrap_or(Json::Null)
}

/// A selection's options in its settings (a list, or a map of indexes): (index, label).
fn options(settings: &Json) -> Vec<(i64, String)> {
    match settings.get("options") {
        Some(Json::Array(l)) => l
            .iter()
            .enumerate()
            .map(|(i, v)| (i as i64, v.as_str().unwrap_or_default().to_string()))
            .collect(),
        Some(Json::Object(o)) => o
            .iter()
            .filter_map(|(k, v)| Some((k.parse().ok()?, v.as_str()?.to_string())))
            .collect(),
        _ => Vec::new(),
    }
}

/// A matrix's column identifiers in its settings (a list, or a map, of `{identifier, name}`).
fn columns(settings: &Json) -> Vec<String> {
    let all: Vec<&Json> = match settings.get("columns") {
        Some(Json::Array(l)) => l.iter().collect(),
        Some(Json::Object(o)) => o.values().collect(),
        _ => Vec::new(),
    };
    all.into_iter()
        .filter_map(|c| Some(c.get("identifier")?.as_str()?.to_string()))
        .collect()
}

/// The names of a matrix Field definition's row types (ibexa/fieldtype-matrix's NameHelper):
/// `<Type><Field>Row` and `<Type><Field>RowInput`.
fn matrix_rows(type_identifier: &str, field_identifier: &str) -> (String, String) {
    let row = format!(
        "{}{}Row",
        names::camel(type_identifier),
        names::camel(field_identifier)
    );
    let input = format!("{row}Input");
    (row, input)
}

/// The GraphQL type of a Field definition's value (the reference's `default_settings.yaml`
/// `value_type`s and its relation and selection mappers).
fn value_type(
    field_type: &str,
    settings: &Json,
    validators: &Json,
    item_by_identifier: &HashMap<String, String>,
) -> String {
    match field_type {
        "ezauthor" => "[AuthorFieldValue]".into(),
        "ezbinaryfile" => "BinaryFileFieldValue".into(),
        "ezboolean" => "Boolean".into(),
        "ezdate" | "ezdatetime" => "DateTime".into(),
        "ezfloat" => "Float".into(),
        "ezgmaplocation" => "MapLocationFieldValue".into(),
        "ezimage" | "ezimageasset" => "ImageFieldValue".into(),
        "ezinteger" => "Int".into(),
        "ezkeyword" => "[String]".into(),
        "ezmedia" => "MediaFieldValue".into(),
        "ezrichtext" => "RichTextFieldValue".into(),
        "ezselection" => match settings.get("isMultiple").and_then(Json::as_bool) {
            Some(true) => "[String]".into(),
            _ => "String".into(),
        },
        "ezobjectrelation" | "ezobjectrelationlist" => {
            let allowed = settings
                .get("selectionContentTypes")
                .and_then(Json::as_array)
                .cloned()
                .unwrap_or_default();
            let item = match allowed.as_slice() {
                [one] => one
                    .as_str()
                    .and_then(|i| item_by_identifier.get(i))
                    .cloned()
                    .unwrap_or_else(|| "Item".into()),
                _ => "Item".into(),
            };
            // Several only with a list validator whose limit is not 1.
            let limit = validators
                .get("RelationListValueValidator")
                .map(|v| v.get("selectionLimit").and_then(Json::as_i64));
            match limit {
                Some(l) if l != Some(1) => format!("[{item}]"),
                _ => item,
            }
        }
        _ => "String".into(),
    }
}

/// The GraphQL type of a Field definition's input in mutations (the reference's
/// `default_settings.yaml` `input_type`s).
fn input_type(field_type: &str) -> &'static str {
    match field_type {
        "ezauthor" => "[AuthorInput]",
        "ezbinaryfile" => "BinaryFieldInput",
        "ezboolean" => "Boolean",
        "ezcountry" | "ezkeyword" => "[String]",
        "ezdate" | "ezdatetime" => "DateFieldInput",
        "ezfloat" => "Float",
        "ezgmaplocation" => "MapLocationFieldInput",
        "ezimage" => "ImageFieldInput",
        "ezinteger" | "ezobjectrelation" => "Int",
        "ezmedia" => "MediaFieldInput",
        "ezobjectrelationlist" | "ezselection" => "[Int]",
        "ezrichtext" => "RichTextFieldInput",
        "ezurl" => "UrlFieldInput",
        _ => "String",
    }
}

/// The type of an `<X>ItemType` field: the Field definition's GraphQL type.
fn definition_type(field_type: &str) -> &'static str {
    match field_type {
        "ezbinaryfile" | "ezimage" => "BinaryFieldDefinition",
        "ezmatrix" => "MatrixFieldDefinition",
        "ezboolean" => "CheckboxFieldDefinition",
        "ezcountry" => "CountryFieldDefinition",
        "ezfloat" => "FloatFieldDefinition",
        "ezinteger" => "IntegerFieldDefinition",
        "ezmedia" => "MediaFieldDefinition",
        "ezobjectrelation" => "RelationFieldDefinition",
        "ezobjectrelationlist" => "RelationListFieldDefinition",
        "ezselection" => "SelectionFieldDefinition",
        "ezstring" => "TextLineFieldDefinition",
        "eztext" => "TextBlockFieldDefinition",
        _ => "FieldDefinition",
    }
}

const ITEM_ARGS: &str =
    "contentId: Int, remoteId: String, locationId: Int, locationRemoteId: String, urlAlias: String";
const CONNECTION_ARGS: &str = "after: String, first: Int, before: String, last: Int";

/// The fields every item has (`AbstractItem`).
const ITEM_FIELDS: &str = "  id: ID!\n  _type: ContentType\n  _contentInfo: Content\n  _location: Location\n  _allLocations: [Location]\n  _name: String\n  _url: String\n  _thumbnail: Thumbnail\n";

fn make(
    groups: &[content_type_group::Model],
    types: &[content_type::Model],
    links: &[content_type_group_link::Model],
    fields: &[field_definition::Model],
    languages: &[language::Model],
    variations: &[String],
) -> Domain {
    let mut d = Domain::default();
    let valid_types: Vec<&content_type::Model> = types
        .iter()
        .filter(|t| {
            let ok = names::valid(&t.identifier);
            if !ok {
                tracing::warn!(
                    identifier = %t.identifier,
                    "GraphQL: skipping the content type, whose identifier is no GraphQL name"
                );
            }
            ok
        })
        .collect();
    let item_by_identifier: HashMap<String, String> = valid_types
        .iter()
        .map(|t| (t.identifier.clone(), names::item(&t.identifier)))
        .collect();
    let mut sdl = String::new();
    for t in &valid_types {
        let settings_of = |f: &field_definition::Model| json(&f.field_settings);
        let mut desc = TypeDesc {
            id: t.id,
            identifier: t.identifier.clone(),
            item: names::item(&t.identifier),
            fields: Vec::new(),
        };
        for f in fields.iter().filter(|f| f.content_type_id == t.id) {
            let name = names::field(&f.identifier);
            if !names::valid(&name) || desc.fields.iter().any(|x| x.name == name) {
                tracing::warn!(
                    content_type = %t.identifier, field = %f.identifier,
                    "GraphQL: skipping the Field definition, whose identifier is no GraphQL name"
                );
                continue;
            }
            let field_type = format!("ez{}", f.field_type.trim_start_matches("ez"));
            let settings = settings_of(f);
            let mut value_type = value_type(
                &field_type,
                &settings,
                &json(&f.validator_configuration),
                &item_by_identifier,
            );
            let mut column_ids = Vec::new();
            if field_type == "ezmatrix" {
                column_ids = columns(&settings);
                column_ids.retain(|id| {
                    let ok = names::valid(id);
                    if !ok {
                        tracing::warn!(
                            content_type = %t.identifier, field = %f.identifier, column = %id,
                            "GraphQL: skipping the matrix column, whose identifier is no GraphQL name"
                        );
                    }
                    ok
                });
                // A row type and a row input type, a String per column (a type needs a
                // field: the reference's would be invalid without one).
                let (row, input) = matrix_rows(&t.identifier, &f.identifier);
                for (kind, name) in [("type", &row), ("input", &input)] {
                    let _ = writeln!(sdl, "{kind} {name} {{");
                    for id in &column_ids {
                        let _ = writeln!(sdl, "  {id}: String");
                    }
                    if column_ids.is_empty() {
                        let _ = writeln!(sdl, "  _empty: String");
                    }
                    sdl.push_str("}\n\n");
                }
                value_type = format!("[{row}]");
            }
            desc.fields.push(FieldDesc {
                identifier: f.identifier.clone(),
                name,
                field_type,
                value_type,
                required: f.is_required,
                options: options(&settings),
                columns: column_ids,
            });
        }
        let ti = d.types.len();
        d.by_id.insert(t.id, ti);
        // <X>Item
        let _ = writeln!(
            sdl,
            "type {} implements Item & Node {{\n{ITEM_FIELDS}",
            desc.item
        );
        sdl.pop();
        for (fi, f) in desc.fields.iter().enumerate() {
            let translatable = fields
                .iter()
                .find(|x| x.content_type_id == t.id && x.identifier == f.identifier)
                .is_some_and(|x| x.is_translatable);
            let args = if translatable {
                "(language: RepositoryLanguage)"
            } else {
                ""
            };
            let _ = writeln!(sdl, "  {}{args}: {}", f.name, f.value_type);
            d.roles.insert(
                (desc.item.clone(), f.name.clone()),
                Role::FieldValue(ti, fi),
            );
        }
        sdl.push_str("}\n\n");
        // <X>ItemType
        let item_type = names::item_type(&t.identifier);
        let _ = writeln!(
            sdl,
            "type {item_type} implements ItemType {{\n  _info: ContentType"
        );
        // Resolved from the content type's value (`data::content_type_map`).
        for f in &desc.fields {
            let _ = writeln!(sdl, "  {}: {}", f.name, definition_type(&f.field_type));
        }
        sdl.push_str("}\n\n");
        // <X>ItemConnection
        let connection = names::item_connection(&t.identifier);
        let edge = format!("{}Edge", desc.item);
        let _ = write!(
            sdl,
            "type {connection} {{\n  edges: [{edge}]\n  pageInfo: PageInfo!\n  sliceSize: Int!\n  orderBy: String\n  totalCount: Int\n  pages: [ConnectionPage]\n}}\n\ntype {edge} {{\n  cursor: String!\n  node: {}\n}}\n\n",
            desc.item
        );
        d.types.push(desc);
    }
    // The mutations: create and update per content type with fields.
    let mut mutations = String::from(
        "type ItemMutation {\n  deleteContent(id: ID, contentId: Int): DeleteContentPayload\n  uploadFiles(locationId: Int!, files: [FileUpload]!, language: RepositoryLanguage!): UploadedFilesPayload\n  createToken(username: String!, password: String!): CreatedTokenPayload\n",
    );
    for (ti, t) in d.types.iter().enumerate() {
        if t.fields.is_empty() {
            continue;
        }
        let camel = names::camel(&t.identifier);
        for (what, required) in [("Create", true), ("Update", false)] {
            let _ = writeln!(sdl, "input {}Item{what}Input {{", camel);
            for f in &t.fields {
                let bang = if required && f.required { "!" } else { "" };
                let input = match f.field_type.as_str() {
                    "ezmatrix" => format!("[{}]", matrix_rows(&t.identifier, &f.identifier).1),
                    other => input_type(other).to_string(),
                };
                let _ = writeln!(sdl, "  {}: {input}{bang}", f.name);
            }
            sdl.push_str("}\n\n");
        }
        let _ = writeln!(
            mutations,
            "  create{camel}(input: {camel}ItemCreateInput!, language: RepositoryLanguage!, parentLocationId: Int!): {camel}Item!\n  update{camel}(input: {camel}ItemUpdateInput!, language: RepositoryLanguage!, id: ID, contentId: Int, versionNo: Int): {camel}Item!"
        );
        d.roles.insert(
            ("ItemMutation".into(), format!("create{camel}")),
            Role::Create(ti),
        );
        d.roles.insert(
            ("ItemMutation".into(), format!("update{camel}")),
            Role::Update(ti),
        );
    }
    mutations.push_str("}\n\n");
    sdl.push_str(&mutations);
    // The groups that hold a content type of the schema.
    let mut domain_fields = String::new();
    for g in groups {
        let members: Vec<usize> = links
            .iter()
            .filter(|l| l.group_id == g.id)
            .filter_map(|l| d.by_id.get(&l.content_type_id).copied())
            .collect();
        let group = names::group(&g.identifier);
        let field = names::group_field(&g.identifier);
        if members.is_empty() || !names::valid(&group) || !names::valid(&field) {
            continue;
        }
        let types_name = names::group_types(&g.identifier);
        let _ = writeln!(
            sdl,
            "type {group} {{\n  _info: ContentTypeGroup\n  _types: {types_name}"
        );
        d.roles
            .insert((group.clone(), "_types".into()), Role::GroupTypes);
        let mut types_sdl = format!("type {types_name} {{\n");
        for &ti in &members {
            let identifier = d.types[ti].identifier.clone();
            let (one, many) = (
                names::item_field(&identifier),
                names::items_field(&identifier),
            );
            let _ = writeln!(
                sdl,
                "  {many}({CONNECTION_ARGS}, query: ContentSearchQuery, sortBy: [SortByOptions]): {}\n  {one}({ITEM_ARGS}): {}",
                names::item_connection(&identifier),
                d.types[ti].item
            );
            d.roles.insert((group.clone(), many), Role::ItemsOfType(ti));
            d.roles
                .insert((group.clone(), one.clone()), Role::ItemOfType(ti));
            let _ = writeln!(types_sdl, "  {one}: {}", names::item_type(&identifier));
            d.roles
                .insert((types_name.clone(), one), Role::TypeInfo(ti));
        }
        sdl.push_str("}\n\n");
        sdl.push_str(&types_sdl);
        sdl.push_str("}\n\n");
        let _ = writeln!(domain_fields, "  {field}: {group}");
        d.roles.insert(("Domain".into(), field), Role::Group(g.id));
    }
    let _ = write!(
        sdl,
        "type Domain {{\n  _repository: Repository\n  node(id: ID!): Node\n  item({ITEM_ARGS}): Item\n{domain_fields}}}\n\n"
    );
    // The enums.
    sdl.push_str("enum ContentTypeIdentifier {\n");
    for t in &d.types {
        let _ = writeln!(sdl, "  {}", t.identifier);
    }
    sdl.push_str("}\n\nenum RepositoryLanguage {\n");
    for l in languages {
        let name = language_name(&l.language_code);
        if names::valid(&name) {
            let _ = writeln!(sdl, "  {name}");
            d.languages.insert(name, l.language_code.clone());
        }
    }
    sdl.push_str("}\n\nenum ImageVariationIdentifier {\n");
    for v in variations.iter().filter(|v| names::valid(v)) {
        let _ = writeln!(sdl, "  {v}");
    }
    sdl.push_str("}\n");
    d.sdl = sdl;
    d
}
