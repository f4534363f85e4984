//! Checking content type and Field definition input against the field type system.

use super::ContentTypesService;
use crate::api::model::*;
use crate::error::{Error, Result};
use crate::field_types::files::Uploads;
use crate::stored;
use cairn_runtime::{HashValue, LangMap};
use cairn_store::entity::field_definition;

/// Content type and Field definition identifiers: any text that is not empty, as the
/// reference's ContentTypeService takes them (`tags-test` included), up to 255 characters.
pub fn check_identifier(what: &str, identifier: &str) -> Result<()> {
    if identifier.trim().is_empty() {
        return Err(Error::BadRequest(format!(
            "{what} identifier must not be empty"
        )));
    }
    if identifier.chars().count() > 255 {
        return Err(Error::BadRequest(format!(
            "{what} identifier '{identifier}' is longer than 255 characters"
        )));
    }
    Ok(())
}

/// A field definition's settings, validators and default value, checked by its field type
/// and stored with every default filled in.
pub struct Checked {
    pub settings: String,
    pub validators: String,
    pub default_value: String,
}

impl ContentTypesService {
    /// Checks a Field definition's type, settings, validators and default value; a 400 names
    /// the field and the problem. Files a default value stores are noted in `uploads`.
    pub(super) fn check_field(
        &self,
        identifier: &str,
        field_type: &str,
        settings: Option<&HashValue>,
        validators: Option<&HashValue>,
        default: Option<&HashValue>,
        uploads: &Uploads,
    ) -> Result<Checked> {
        let bad = |m: String| Error::BadRequest(format!("Field definition '{identifier}': {m}"));
        let ft = self.field_type(field_type).ok_or_else(|| {
            bad(format!(
                "unknown field type '{}'",
                self.field_types.identifier(field_type)
            ))
        })?;
        let null = HashValue::Null;
        let settings = settings.unwrap_or(&null);
        let validators = validators.unwrap_or(&null);
        let full_settings = ft
            .settings(settings)
            .map_err(|m| bad(format!("fieldSettings: {m}")))?;
        let full_validators = ft
            .validators(validators)
            .map_err(|m| bad(format!("validatorConfiguration: {m}")))?;
        let default = match default {
            None | Some(HashValue::Null) => HashValue::Null,
            Some(input) => {
                let cx = self.input_context(uploads);
                let v = ft.from_hash(input, &cx).map_err(|e| match e.kind {
                    crate::field_types::STORE_FAILED => Error::StorageFailed(e.message),
                    _ => bad(format!("defaultValue: {}", e.message)),
                })?;
                if !ft.is_empty(&v) {
                    let def = crate::field_types::Definition {
                        settings: &full_settings,
                        validators: &full_validators,
                    };
                    if let Some(e) = ft.validate(&v, &def).into_iter().next() {
                        return Err(bad(format!("defaultValue: {}", e.message)));
                    }
                }
                v
            }
        };
        Ok(Checked {
            settings: stored::hash_json(&full_settings),
            validators: stored::hash_json(&full_validators),
            default_value: stored::hash_json(&default),
        })
    }

    /// The bare field type name of an identifier given in input (`ezstring` → `string`).
    pub(super) fn bare_field_type(&self, identifier: &str, field: &str) -> Result<String> {
        let ft = self.field_types.get(identifier).ok_or_else(|| {
            Error::BadRequest(format!(
                "Field definition '{field}': unknown field type '{identifier}'"
            ))
        })?;
        Ok(ft.name().to_string())
    }

    /// A new Field definition row from `FieldDefinitionCreate`.
    pub(super) fn new_field(
        &self,
        id: i64,
        content_type_id: i64,
        status: i64,
        input: &FieldDefinitionCreate,
        default_position: i64,
        uploads: &Uploads,
    ) -> Result<field_definition::Model> {
        check_identifier("Field definition", &input.identifier)?;
        let field_type = self.bare_field_type(&input.field_type, &input.identifier)?;
        let checked = self.check_field(
            &input.identifier,
            &field_type,
            input.field_settings.as_ref(),
            input.validator_configuration.as_ref(),
            input.default_value.as_ref(),
            uploads,
        )?;
        Ok(field_definition::Model {
            id,
            status,
            content_type_id,
            identifier: input.identifier.clone(),
            field_type,
            field_group: input.field_group.clone().unwrap_or_default(),
            position: input.position.unwrap_or(default_position),
            is_translatable: input.is_translatable.unwrap_or(true),
            is_required: input.is_required.unwrap_or(false),
            is_info_collector: input.is_info_collector.unwrap_or(false),
            is_searchable: input.is_searchable.unwrap_or(true),
            is_thumbnail: false,
            names: stored::lang_map_json(input.names.as_ref().unwrap_or(&LangMap::default())),
            descriptions: stored::lang_map_json(
                input.descriptions.as_ref().unwrap_or(&LangMap::default()),
            ),
            default_value: checked.default_value,
            field_settings: checked.settings,
            validator_configuration: checked.validators,
        })
    }

    /// Applies `FieldDefinitionUpdate` to a draft's Field definition.
    pub(super) fn update_field(
        &self,
        f: &mut field_definition::Model,
        input: &FieldDefinitionUpdate,
        uploads: &Uploads,
    ) -> Result<()> {
        if let Some(identifier) = &input.identifier {
            check_identifier("Field definition", identifier)?;
            f.identifier = identifier.clone();
        }
        if let Some(g) = &input.field_group {
            f.field_group = g.clone();
        }
        if let Some(p) = input.position {
            f.position = p;
        }
        if let Some(v) = input.is_translatable {
            f.is_translatable = v;
        }
        if let Some(v) = input.is_required {
            f.is_required = v;
        }
        if let Some(v) = input.is_info_collector {
            f.is_info_collector = v;
        }
        if let Some(v) = input.is_searchable {
            f.is_searchable = v;
        }
        if let Some(n) = &input.names {
            let mut names = stored::lang_map(&f.names);
            for (l, t) in &n.0 {
                names.set(l, t);
            }
            f.names = stored::lang_map_json(&names);
        }
        if let Some(d) = &input.descriptions {
            let mut descriptions = stored::lang_map(&f.descriptions);
            for (l, t) in &d.0 {
                descriptions.set(l, t);
            }
            f.descriptions = stored::lang_map_json(&descriptions);
        }
        if input.field_settings.is_some()
            || input.validator_configuration.is_some()
            || input.default_value.is_some()
        {
            let settings = input
                .field_settings
                .clone()
                .unwrap_or_else(|| stored::hash(&f.field_settings));
            let validators = input
                .validator_configuration
                .clone()
                .unwrap_or_else(|| stored::hash(&f.validator_configuration));
            let default = match &input.default_value {
                Some(d) => d.clone(),
                None => {
                    // The stored default is a stored value: give it back as input.
                    let stored_default = stored::hash(&f.default_value);
                    match self.field_type(&f.field_type) {
                        Some(ft) if !stored_default.is_null() => {
                            ft.to_hash(&stored_default, &self.value_context(None))
                        }
                        _ => stored_default,
                    }
                }
            };
            let checked = self.check_field(
                &f.identifier,
                &f.field_type,
                Some(&settings),
                Some(&validators),
                Some(&default),
                uploads,
            )?;
            f.field_settings = checked.settings;
            f.validator_configuration = checked.validators;
            f.default_value = checked.default_value;
        }
        Ok(())
    }
}
