//! GraphQL at `/graphql`, as ibexa/graphql 4.6 offers it: the domain schema made from the
//! content types (`domain.rs`, named by `names.rs`) beside the fixed types of the reference
//! (`spec/graphql/platform.graphql`), made executable by `schema.rs` and kept current by
//! itself; its fields resolved by `resolve.rs` through the API's own operations (`data.rs`),
//! so GraphQL reads nothing REST would refuse; its mutations (`mutate.rs`) write through them
//! too; served by `http.rs`.

mod data;
mod domain;
mod http;
mod mutate;
mod names;
mod resolve;
mod schema;

pub use http::{PATH, endpoint};

/// The SDL of the schema for the repository's content types (`cairn graphql schema`).
pub async fn sdl(services: &crate::mount::Services) -> anyhow::Result<String> {
    let reader = services.db.plain_reader();
    let variations = services.images.variations().names().to_vec();
    let domain = domain::load(&reader, &variations).await?;
    // Made executable too: the SDL printed is one the server serves.
    let built = schema::build(std::sync::Arc::new(domain))?;
    Ok(built.schema.sdl())
}
