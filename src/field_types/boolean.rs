//! `ezboolean`: a boolean; the empty value is `false` and a boolean is never empty.

use super::*;

pub(crate) struct BooleanType;

impl FieldType for BooleanType {
    fn schema(&self) -> Schema {
        Schema::named("boolean")
    }

    /// A boolean, also `0`/`1` and `"true"`/`"false"`/`"1"`/`"0"`; `null` is `false`.
    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        match input {
            HashValue::Null => Ok(HashValue::Bool(false)),
            v => v
                .as_bool()
                .map(HashValue::Bool)
                .ok_or_else(|| ValueError::new("bool", "Value must be a boolean")),
        }
    }

    fn to_hash(&self, value: &HashValue, _: &ValueContext<'_>) -> HashValue {
        HashValue::Bool(value.as_bool().unwrap_or(false))
    }

    fn empty_value(&self) -> HashValue {
        HashValue::Bool(false)
    }

    fn is_empty(&self, _value: &HashValue) -> bool {
        false
    }

    fn sort_key(&self, value: &HashValue) -> SortKey {
        SortKey::Int(i64::from(value.as_bool().unwrap_or(false)))
    }

    /// `"1"` or `"0"`.
    fn name_text(&self, value: &HashValue) -> String {
        if value.as_bool().unwrap_or(false) {
            "1"
        } else {
            "0"
        }
        .to_string()
    }
}
