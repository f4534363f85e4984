//! Reading request bodies: one [`Node`] interface over the XML element tree and JSON values,
//! and the helpers the generated decoders call. Every error names the path of the element at
//! fault, e.g. `ContentCreate.fields.field[2].fieldValue`.
//!
//! This file holds the interface, the decoder's [`Path`] and the model's scalars; `fields`
//! the helpers, one per kind of field; `params` the parameters read back out of hrefs and
//! paths; `json_value` JSON values as a [`Node`] (the XML element tree is in `xml`).

mod fields;
mod json_value;
mod params;

pub use fields::{
    hash, item_object, item_ref, item_ref_param, item_scalar, lang_map, list, missing, nested,
    optional, optional_attr, reference, reference_param, required, required_attr, text,
};
pub use params::{param_of, params_of};

use crate::media::Wire;
use crate::values::{Float, HashValue, Timestamp};
use std::fmt;

/// A scalar as a body holds it: XML gives only text, JSON keeps its types.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar<'a> {
    Null,
    Str(&'a str),
    Int(i64),
    Float(f64),
    Bool(bool),
    /// Not a scalar: an element with children, a JSON object or array.
    Complex,
}

/// An element of a request body, in either format.
pub trait Node: Sized {
    /// JSON reads properties by their JSON names where those differ from XML's.
    const JSON: bool;
    /// XML attribute `name`, JSON property `_name`.
    fn attr(&self, name: &str) -> Option<Scalar<'_>>;
    /// The first child element `name` / JSON property `name`.
    fn child(&self, name: &str) -> Option<&Self>;
    /// Every child element `name` / the items of the JSON array `name` (or the one value).
    fn children(&self, name: &str) -> Vec<&Self>;
    /// The items of a wrapped list: XML children named `item`, JSON array items.
    fn items(&self, item: &str) -> Vec<&Self>;
    /// The element's text / the JSON scalar (or an object's `#text`).
    fn scalar(&self) -> Scalar<'_>;
    /// The element as a key/value tree (XML scalars cast like the reference).
    fn to_hash(&self) -> HashValue;
}

/// Where the decoder is: the path of the current element, and the API prefix for hrefs.
pub struct Path<'a> {
    segments: Vec<String>,
    wire: &'a Wire,
}

impl<'a> Path<'a> {
    pub fn new(root: &str, wire: &'a Wire) -> Path<'a> {
        Path {
            segments: vec![root.to_string()],
            wire,
        }
    }

    pub fn push(&mut self, segment: impl Into<String>) {
        self.segments.push(segment.into());
    }

    pub fn pop(&mut self) {
        self.segments.pop();
    }

    pub fn wire(&self) -> &Wire {
        self.wire
    }

    pub fn error(&self, message: impl Into<String>) -> DecodeError {
        DecodeError {
            path: self.to_string(),
            message: message.into(),
        }
    }

    fn child_error(&self, name: &str, message: impl Into<String>) -> DecodeError {
        DecodeError {
            path: format!("{self}.{name}"),
            message: message.into(),
        }
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.segments.iter().enumerate() {
            if i > 0 && !s.starts_with('[') {
                f.write_str(".")?;
            }
            f.write_str(s)?;
        }
        Ok(())
    }
}

/// A body that does not match its input type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// An input type the generated code can read from either format.
pub trait Decode: Sized {
    fn decode<N: Node>(node: &N, path: &mut Path<'_>) -> Result<Self, DecodeError>;
}

/// A scalar type of the model.
pub trait FromScalar: Sized {
    const EXPECTED: &'static str;
    fn from_scalar(s: &Scalar<'_>) -> Option<Self>;
}

impl FromScalar for String {
    const EXPECTED: &'static str = "a string";
    fn from_scalar(s: &Scalar<'_>) -> Option<Self> {
        match s {
            Scalar::Str(v) => Some(v.to_string()),
            Scalar::Int(i) => Some(i.to_string()),
            Scalar::Float(f) => Some(f.to_string()),
            Scalar::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }
}

impl FromScalar for i64 {
    const EXPECTED: &'static str = "an integer";
    fn from_scalar(s: &Scalar<'_>) -> Option<Self> {
        match s {
            Scalar::Int(i) => Some(*i),
            Scalar::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(*f as i64),
            Scalar::Str(v) => v.trim().parse().ok(),
            _ => None,
        }
    }
}

impl FromScalar for bool {
    const EXPECTED: &'static str = "a boolean (true or false)";
    fn from_scalar(s: &Scalar<'_>) -> Option<Self> {
        match s {
            Scalar::Bool(b) => Some(*b),
            Scalar::Int(0) => Some(false),
            Scalar::Int(1) => Some(true),
            Scalar::Str(v) => match v.trim().to_ascii_lowercase().as_str() {
                "true" | "1" => Some(true),
                "false" | "0" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }
}

impl FromScalar for Float {
    const EXPECTED: &'static str = "a number";
    fn from_scalar(s: &Scalar<'_>) -> Option<Self> {
        match s {
            Scalar::Int(i) => Some(Float(*i as f64)),
            Scalar::Float(f) => Some(Float(*f)),
            Scalar::Str(v) => v.trim().parse().ok().map(Float),
            _ => None,
        }
    }
}

impl FromScalar for Timestamp {
    const EXPECTED: &'static str = "a date and time (ISO 8601)";
    fn from_scalar(s: &Scalar<'_>) -> Option<Self> {
        match s {
            Scalar::Int(i) => Some(Timestamp(*i)),
            Scalar::Str(v) => Timestamp::parse(v),
            _ => None,
        }
    }
}
