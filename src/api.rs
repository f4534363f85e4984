//! The API generated from `spec/` by `build.rs` (committed copy: `generated/`): the model, its
//! codecs, the traits the services implement, the routes, and the hrefs of every path.

#[rustfmt::skip]
pub mod model {
    include!(concat!(env!("OUT_DIR"), "/model.rs"));
}
#[rustfmt::skip]
pub mod encode {
    include!(concat!(env!("OUT_DIR"), "/encode.rs"));
}
#[rustfmt::skip]
pub mod decode {
    include!(concat!(env!("OUT_DIR"), "/decode.rs"));
}
#[rustfmt::skip]
pub mod traits {
    include!(concat!(env!("OUT_DIR"), "/traits.rs"));
}
#[rustfmt::skip]
pub mod routes {
    include!(concat!(env!("OUT_DIR"), "/routes.rs"));
}
#[rustfmt::skip]
pub mod hrefs {
    include!(concat!(env!("OUT_DIR"), "/hrefs.rs"));
}

/// The OpenAPI 3.1 document of the spec, for the default vendor `ibexa`.
pub const OPENAPI: &str = include_str!(concat!(env!("OUT_DIR"), "/openapi.json"));
