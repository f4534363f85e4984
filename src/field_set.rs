//! The field values of one version: each a Field definition in a language, as stored and as
//! a write builds them up.

use crate::stored;
use cairn_runtime::HashValue;
use cairn_store::entity::content_field;

/// One field value of the version: a Field definition in a language.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The field's id; 0 for a field not stored yet.
    pub id: i64,
    pub definition_id: i64,
    pub language: String,
    pub value: HashValue,
}

/// The fields of one version.
#[derive(Debug, Clone, Default)]
pub struct FieldSet {
    pub entries: Vec<Entry>,
}

impl FieldSet {
    pub fn from_rows(rows: &[content_field::Model]) -> FieldSet {
        FieldSet {
            entries: rows
                .iter()
                .map(|r| Entry {
                    id: r.id,
                    definition_id: r.field_definition_id,
                    language: r.language_code.clone(),
                    value: stored::hash(&r.value),
                })
                .collect(),
        }
    }

    pub(crate) fn get_mut(&mut self, definition_id: i64, language: &str) -> Option<&mut Entry> {
        self.entries
            .iter_mut()
            .find(|e| e.definition_id == definition_id && e.language == language)
    }

    pub fn get(&self, definition_id: i64, language: &str) -> Option<&Entry> {
        self.entries
            .iter()
            .find(|e| e.definition_id == definition_id && e.language == language)
    }

    pub(crate) fn set(&mut self, definition_id: i64, language: &str, value: HashValue) {
        match self.get_mut(definition_id, language) {
            Some(e) => e.value = value,
            None => self.entries.push(Entry {
                id: 0,
                definition_id,
                language: language.to_string(),
                value,
            }),
        }
    }

    /// The languages that have a value, in first-seen order.
    pub fn languages(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for e in &self.entries {
            if !out.contains(&e.language) {
                out.push(e.language.clone());
            }
        }
        out
    }
}
