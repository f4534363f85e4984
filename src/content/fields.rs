//! The field values of a version being written: input read through the field types, missing
//! values filled in, every value validated (all failures reported together), names built
//! from the name schema, rows and field relations saved.

use crate::api::model::FieldInput;
use crate::content_rows::TypeInfo;
use crate::error::{Error, Result};
pub use crate::field_set::FieldSet;
use crate::field_types::files::Uploads;
use crate::field_types::{Definition, SortKey};
use crate::shared::Shared;
use crate::stored;
use cairn_runtime::{FieldErrors, HashValue, LangMap};
use cairn_store::Connection;
use cairn_store::Tx;
use cairn_store::entity::{content, content_field};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

/// Validation failures of a request, grouped per Field definition.
#[derive(Default)]
pub struct Failures(Vec<FieldErrors>);

impl Failures {
    fn push(&mut self, definition_id: i64, kind: &str, message: String) {
        match self
            .0
            .iter_mut()
            .find(|f| f.field_definition_id == definition_id)
        {
            Some(f) => f.errors.push((kind.to_string(), message)),
            None => self.0.push(FieldErrors {
                field_definition_id: definition_id,
                errors: vec![(kind.to_string(), message)],
            }),
        }
    }

    /// One 400 listing every failing field, or nothing.
    pub fn into_result(self, what: &str) -> Result<()> {
        if self.0.is_empty() {
            return Ok(());
        }
        let count: usize = self.0.iter().map(|f| f.errors.len()).sum();
        Err(Error::InvalidFields {
            message: format!("Content \"{what}\" fields did not validate: {count} error(s)"),
            fields: self.0,
        })
    }
}

impl Shared {
    /// Reads `inputs` into `set` through the field types; malformed values are failures, an
    /// unknown Field definition or a value for a non-translatable field in another language
    /// than `main_language` is a 400 at once; a value without a language is in
    /// `default_language`. Files the inputs store are noted in `uploads`.
    pub(crate) fn apply_inputs(
        &self,
        ty: &TypeInfo,
        set: &mut FieldSet,
        inputs: &[FieldInput],
        (default_language, main_language): (&str, &str),
        failures: &mut Failures,
        uploads: &Uploads,
    ) -> Result<()> {
        let cx = self.input_context(uploads);
        for input in inputs {
            let def = ty
                .field_by_identifier(&input.field_definition_identifier)
                .ok_or_else(|| {
                    Error::BadRequest(format!(
                        "Content type '{}' has no Field definition '{}'",
                        ty.ty.identifier, input.field_definition_identifier
                    ))
                })?;
            let language = input.language_code.as_deref().unwrap_or(default_language);
            check_language_code(language)?;
            if !def.is_translatable && language != main_language {
                return Err(Error::BadRequest(format!(
                    "Field '{}' is not translatable: give it in the main language '{main_language}' only",
                    def.identifier
                )));
            }
            let Some(ft) = self.field_type(&def.field_type) else {
                return Err(Error::Internal(format!(
                    "Field definition {} has an unknown field type '{}'",
                    def.id, def.field_type
                )));
            };
            match ft.from_hash(&input.field_value, &cx) {
                Ok(v) => set.set(def.id, language, v),
                Err(e) if e.kind == crate::field_types::STORE_FAILED => {
                    return Err(Error::StorageFailed(e.message));
                }
                Err(e) => failures.push(def.id, e.kind, e.message),
            }
        }
        Ok(())
    }

    /// Gives every Field definition a value in every language of the version: translatable
    /// fields get their default value (new content) or the empty value; non-translatable
    /// ones share the main language's value.
    pub(crate) fn complete_fields(
        &self,
        ty: &TypeInfo,
        set: &mut FieldSet,
        languages: &[String],
        main_language: &str,
        use_defaults: bool,
    ) {
        for def in &ty.fields {
            let Some(ft) = self.field_type(&def.field_type) else {
                continue;
            };
            let default = if use_defaults {
                let d = stored::hash(&def.default_value);
                if d.is_null() { ft.empty_value() } else { d }
            } else {
                ft.empty_value()
            };
            let main_value = set
                .get(def.id, main_language)
                .map(|e| e.value.clone())
                .unwrap_or_else(|| default.clone());
            for lang in languages {
                if !def.is_translatable {
                    set.set(def.id, lang, main_value.clone());
                } else if set.get(def.id, lang).is_none() {
                    set.set(def.id, lang, default.clone());
                }
            }
        }
        // Fields of definitions the type no longer has are dropped.
        set.entries.retain(|e| ty.field(e.definition_id).is_some());
    }

    /// Validates every value: required fields filled, each value valid for its definition.
    pub(crate) fn validate_fields(&self, ty: &TypeInfo, set: &FieldSet, failures: &mut Failures) {
        for e in &set.entries {
            let Some(def) = ty.field(e.definition_id) else {
                continue;
            };
            let Some(ft) = self.field_type(&def.field_type) else {
                continue;
            };
            if ft.is_empty(&e.value) {
                if def.is_required {
                    failures.push(
                        def.id,
                        "required",
                        format!(
                            "Value for required field definition '{}' with language '{}' is empty",
                            def.identifier, e.language
                        ),
                    );
                }
                continue;
            }
            let settings = stored::hash(&def.field_settings);
            let validators = stored::hash(&def.validator_configuration);
            let settings = ft.settings(&settings).unwrap_or(settings);
            let validators = ft.validators(&validators).unwrap_or(validators);
            let d = Definition {
                settings: &settings,
                validators: &validators,
            };
            for err in ft.validate(&e.value, &d) {
                failures.push(def.id, err.kind, err.message);
            }
        }
    }

    /// The content's name in `language` from the type's name schema.
    pub(crate) fn content_name(&self, ty: &TypeInfo, set: &FieldSet, language: &str) -> String {
        let schema = ty
            .ty
            .name_schema
            .clone()
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| {
                ty.fields
                    .first()
                    .map(|f| format!("<{}>", f.identifier))
                    .unwrap_or_default()
            });
        let text_of = |identifier: &str| -> String {
            let Some(def) = ty.field_by_identifier(identifier) else {
                return String::new();
            };
            let Some(entry) = set.get(def.id, language) else {
                return String::new();
            };
            let Some(ft) = self.field_type(&def.field_type) else {
                return String::new();
            };
            let settings = stored::hash(&def.field_settings);
            let validators = stored::hash(&def.validator_configuration);
            ft.name_text_in(
                &entry.value,
                &Definition {
                    settings: &settings,
                    validators: &validators,
                },
                language,
            )
        };
        super::names::resolve(&schema, &text_of)
    }

    /// Names of the version in each of its languages.
    pub(crate) fn version_names(
        &self,
        ty: &TypeInfo,
        set: &FieldSet,
        languages: &[String],
    ) -> LangMap {
        LangMap(
            languages
                .iter()
                .map(|l| (l.clone(), self.content_name(ty, set, l)))
                .collect(),
        )
    }

    /// Replaces the fields and field relations of version `no` with `set` (new fields get
    /// ids); COMMON relations stay. A `fresh` version (written in this transaction, with no
    /// fields yet) has nothing to replace.
    pub(crate) async fn save_fields(
        &self,
        tx: &Tx,
        ty: &TypeInfo,
        c: &content::Model,
        no: i64,
        set: &mut FieldSet,
        fresh: bool,
    ) -> Result<()> {
        for e in set.entries.iter_mut() {
            let Some(def) = ty.field(e.definition_id) else {
                continue;
            };
            if def.field_type == "user" {
                let settings = stored::hash(&def.field_settings);
                let unique_email = settings
                    .get("RequireUniqueEmail")
                    .and_then(HashValue::as_bool)
                    .unwrap_or(true);
                crate::accounts::store(tx, c.id, &mut e.value, unique_email).await?;
            }
        }
        if !fresh {
            content_field::Entity::delete_many()
                .filter(content_field::Column::ContentId.eq(c.id))
                .filter(content_field::Column::VersionNo.eq(no))
                .exec(tx)
                .await?;
        }
        let mut rows = Vec::with_capacity(set.entries.len());
        for e in &set.entries {
            let def = ty.field(e.definition_id);
            let ft = def.and_then(|d| self.field_type(&d.field_type));
            let (sort_string, sort_int) = match ft.map(|t| t.sort_key(&e.value)) {
                Some(SortKey::Text(s)) => (s, 0),
                Some(SortKey::Int(i)) => (String::new(), i),
                _ => (String::new(), 0),
            };
            rows.push(content_field::Model {
                id: e.id,
                version_no: no,
                content_id: c.id,
                field_definition_id: e.definition_id,
                language_code: e.language.clone(),
                value: stored::hash_json(&e.value),
                sort_key_string: sort_string,
                sort_key_int: sort_int,
            });
        }
        crate::content_rows::insert_fields(tx, &mut rows).await?;
        // New fields have their ids now (one row per entry, in order).
        for (e, f) in set.entries.iter_mut().zip(&rows) {
            e.id = f.id;
        }
        let relations = super::implied::Implied::of(self, tx, ty, set).await?;
        relations.save(tx, c.id, no, fresh).await?;
        Ok(())
    }

    /// Fails the values whose relations point at content that does not exist.
    pub(crate) async fn check_relation_targets(
        &self,
        db: &impl Connection,
        ty: &TypeInfo,
        set: &FieldSet,
        failures: &mut Failures,
    ) -> Result<()> {
        let mut wanted: Vec<(i64, i64)> = Vec::new();
        for e in &set.entries {
            let Some(def) = ty.field(e.definition_id) else {
                continue;
            };
            let Some(ft) = self.field_type(&def.field_type) else {
                continue;
            };
            for (_, dest) in ft.relations(&e.value) {
                wanted.push((def.id, dest));
            }
        }
        if wanted.is_empty() {
            return Ok(());
        }
        let ids: Vec<i64> = wanted.iter().map(|w| w.1).collect();
        let found: Vec<i64> = content::Entity::find()
            .filter(content::Column::Id.is_in(ids))
            .all(db)
            .await?
            .into_iter()
            .map(|c| c.id)
            .collect();
        for (def, dest) in wanted {
            if !found.contains(&dest) {
                failures.push(
                    def,
                    "relation",
                    format!("Content with id {dest} does not exist"),
                );
            }
        }
        Ok(())
    }
}

/// `eng-GB`: three lowercase letters, a dash, two uppercase letters (400 otherwise).
pub fn check_language_code(code: &str) -> Result<()> {
    // By bytes: a text of six bytes need not have a character boundary at 3 or 4.
    let b = code.as_bytes();
    let ok = b.len() == 6
        && b[..3].iter().all(u8::is_ascii_lowercase)
        && b[3] == b'-'
        && b[4..].iter().all(u8::is_ascii_uppercase);
    if ok {
        Ok(())
    } else {
        Err(Error::BadRequest(format!(
            "'{code}' is not a language code (e.g. eng-GB)"
        )))
    }
}
