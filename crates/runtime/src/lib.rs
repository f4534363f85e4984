//! The runtime of cairn's generated API code: value types of the model, the XML and JSON
//! writers the generated encoders call, the input trees the generated decoders read, content
//! negotiation, and the HTTP reply and error types.
//!
//! Nothing here knows a resource: resources live in `spec/` and the code generated from it.

pub mod decode;
pub mod error;
mod escape;
pub mod http;
pub mod json;
pub mod media;
pub mod page;
pub mod reply;
pub mod responses;
pub mod sse;
pub mod values;
pub mod xml;

pub use decode::{DecodeError, Node, Path};
pub use error::{FieldErrors, HttpError};
pub use http::{Access, ETag, Encode, IfMatch, Operation, Rq};
pub use json::JsonWriter;
pub use media::{Format, Negotiation};
pub use page::{Limit, Offset};
pub use reply::{Rendered, Reply};
pub use responses::ResponseCache;
pub use values::{Float, HashValue, LangMap, Timestamp};
pub use xml::XmlWriter;
