//! Content types, their Field definitions and groups as the API represents them.

use super::rows::TypeRows;
use crate::api::hrefs;
use crate::api::model::*;
use crate::shared::Shared;
use crate::stored;
use cairn_runtime::{HashValue, Timestamp};
use cairn_store::entity::{content_type, content_type_group, field_definition};

/// `/content/types/{id}` or `/content/types/{id}/draft`.
fn type_href(id: i64, status: i64) -> String {
    if status == content_type::DRAFT {
        hrefs::load_content_type_draft(id)
    } else {
        hrefs::load_content_type(id)
    }
}

fn status_name(status: i64) -> String {
    if status == content_type::DRAFT {
        "DRAFT"
    } else {
        "DEFINED"
    }
    .to_string()
}

pub fn group(g: &content_type_group::Model) -> ContentTypeGroup {
    ContentTypeGroup {
        href: hrefs::load_content_type_group(g.id),
        id: g.id,
        identifier: g.identifier.clone(),
        created: Timestamp(g.created),
        modified: Timestamp(g.modified),
        creator: g.creator_id,
        modifier: g.modifier_id,
        content_types: g.id,
    }
}

/// The groups of a type: each with an unlink link while the type has more than one.
pub fn group_refs(type_id: i64, groups: &[i64]) -> ContentTypeGroupRefList {
    ContentTypeGroupRefList {
        href: hrefs::load_groups_of_content_type(type_id),
        content_type_group_ref: groups
            .iter()
            .map(|g| ContentTypeGroupRef {
                href: hrefs::load_content_type_group(*g),
                unlink: (groups.len() > 1).then(|| ContentTypeGroupUnlink {
                    href: hrefs::unlink_content_type_from_group(type_id, *g),
                    method: "DELETE".into(),
                }),
            })
            .collect(),
    }
}

impl Shared {
    pub(super) fn type_info(&self, t: &content_type::Model) -> ContentTypeInfo {
        ContentTypeInfo {
            href: type_href(t.id, t.status),
            id: t.id,
            status: status_name(t.status),
            identifier: t.identifier.clone(),
            names: stored::lang_map(&t.names),
            descriptions: stored::lang_map(&t.descriptions),
            creation_date: Timestamp(t.created),
            modification_date: Timestamp(t.modified),
            creator: t.creator_id,
            modifier: t.modifier_id,
            groups: t.id,
            draft: t.id,
            remote_id: t.remote_id.clone(),
            url_alias_schema: t.url_alias_schema.clone(),
            name_schema: t.name_schema.clone(),
            is_container: t.is_container,
            main_language_code: t.main_language_code.clone(),
            default_always_available: t.default_always_available,
            default_sort_field: t.default_sort_field.clone(),
            default_sort_order: t.default_sort_order.clone(),
        }
    }

    pub(super) fn content_type(&self, rows: &TypeRows) -> ContentType {
        let t = &rows.ty;
        let i = self.type_info(t);
        ContentType {
            href: i.href,
            id: i.id,
            status: i.status,
            identifier: i.identifier,
            names: i.names,
            descriptions: i.descriptions,
            creation_date: i.creation_date,
            modification_date: i.modification_date,
            creator: i.creator,
            modifier: i.modifier,
            groups: i.groups,
            draft: i.draft,
            remote_id: i.remote_id,
            url_alias_schema: i.url_alias_schema,
            name_schema: i.name_schema,
            is_container: i.is_container,
            main_language_code: i.main_language_code,
            default_always_available: i.default_always_available,
            default_sort_field: i.default_sort_field,
            default_sort_order: i.default_sort_order,
            field_definitions: self.field_definition_list(t.id, t.status, &rows.fields),
        }
    }

    pub(super) fn field_definition_list(
        &self,
        type_id: i64,
        status: i64,
        fields: &[field_definition::Model],
    ) -> FieldDefinitionList {
        FieldDefinitionList {
            href: if status == content_type::DRAFT {
                hrefs::load_content_type_draft_field_definition_list(type_id)
            } else {
                hrefs::load_content_type_field_definition_list(type_id)
            },
            field_definition: fields.iter().map(|f| self.field_definition(f)).collect(),
        }
    }

    /// A Field definition; settings and validators with the type's defaults filled in.
    pub(super) fn field_definition(&self, f: &field_definition::Model) -> FieldDefinition {
        let settings = stored::hash(&f.field_settings);
        let validators = stored::hash(&f.validator_configuration);
        let default = stored::hash(&f.default_value);
        let (settings, validators, default) = match self.field_type(&f.field_type) {
            Some(ft) => {
                let cx = self.value_context(None);
                (
                    ft.settings(&settings).unwrap_or(settings),
                    ft.validators(&validators).unwrap_or(validators),
                    if default.is_null() {
                        default
                    } else {
                        ft.to_hash(&default, &cx)
                    },
                )
            }
            None => (settings, validators, default),
        };
        FieldDefinition {
            href: if f.status == content_type::DRAFT {
                hrefs::load_content_type_draft_field_definition(f.content_type_id, f.id)
            } else {
                hrefs::load_content_type_field_definition(f.content_type_id, f.id)
            },
            id: f.id,
            identifier: f.identifier.clone(),
            field_type: self.field_types.identifier(&f.field_type),
            field_group: f.field_group.clone(),
            position: f.position,
            is_translatable: f.is_translatable,
            is_required: f.is_required,
            is_info_collector: f.is_info_collector,
            default_value: default,
            is_searchable: f.is_searchable,
            names: stored::lang_map(&f.names),
            descriptions: stored::lang_map(&f.descriptions),
            field_settings: empty_as_map(settings),
            validator_configuration: empty_as_map(validators),
        }
    }
}

/// Settings are a map, also when there are none.
fn empty_as_map(v: HashValue) -> HashValue {
    if v.is_null() {
        HashValue::Map(Vec::new())
    } else {
        v
    }
}
