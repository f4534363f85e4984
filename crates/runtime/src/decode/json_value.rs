//! JSON values as a [`Node`]: attributes are `_name` properties, lists are arrays.

use super::{Node, Scalar};
use crate::values::HashValue;

impl Node for serde_json::Value {
    const JSON: bool = true;
    fn attr(&self, name: &str) -> Option<Scalar<'_>> {
        self.as_object()?
            .get(&format!("_{name}"))
            .map(|v| v.scalar())
    }

    fn child(&self, name: &str) -> Option<&Self> {
        self.as_object()?.get(name)
    }

    fn children(&self, name: &str) -> Vec<&Self> {
        match self.as_object().and_then(|o| o.get(name)) {
            None | Some(serde_json::Value::Null) => Vec::new(),
            Some(serde_json::Value::Array(a)) => a.iter().collect(),
            Some(v) => vec![v],
        }
    }

    fn items(&self, item: &str) -> Vec<&Self> {
        match self {
            serde_json::Value::Array(a) => a.iter().collect(),
            // Also accept the XML-shaped `{"item": [...]}`.
            serde_json::Value::Object(_) => self.children(item),
            serde_json::Value::Null => Vec::new(),
            v => vec![v],
        }
    }

    fn scalar(&self) -> Scalar<'_> {
        use serde_json::Value;
        match self {
            Value::Null => Scalar::Null,
            Value::Bool(b) => Scalar::Bool(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => Scalar::Int(i),
                None => Scalar::Float(n.as_f64().unwrap_or(0.0)),
            },
            Value::String(s) => Scalar::Str(s),
            Value::Object(o) => match o.get("#text") {
                Some(t) => t.scalar(),
                None => Scalar::Complex,
            },
            Value::Array(_) => Scalar::Complex,
        }
    }

    fn to_hash(&self) -> HashValue {
        HashValue::from_json(self)
    }
}
