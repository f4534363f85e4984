//! XML: the writer the generated encoders call (`writer`), and the element tree request
//! bodies are read into before the generated decoders map them (`element`).

mod element;
mod writer;

pub use element::XmlElement;
pub use writer::{XmlText, XmlWriter};
