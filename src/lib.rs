//! cairn: a content repository server speaking the Ibexa DXP / eZ Platform REST API v2.
//!
//! `api` is generated from `spec/`; the other modules are the hand-written services that
//! implement it (one service type per resource family, in its module, over the `shared`
//! state, mounted by `services`), authentication, errors and the app.

mod accounts;
pub mod admin;
pub mod api;
pub mod app;
pub mod auth;
mod cache;
mod cascades;
mod changes;
pub mod config;
mod credentials;
pub mod error;
pub mod feed;
mod field_set;
pub mod field_types;
mod front;
mod full_text;
mod generations;
mod grants;
pub mod graphql;
pub mod http_cache;
pub mod images;
pub mod jwt;
mod language_list;
pub mod metrics;
pub mod migrate;
pub mod mount;
mod preconditions;
mod responses;
pub mod services;
pub mod shared;
pub mod storage;

mod bookmarks;
mod content;
mod content_rows;
mod content_types;
mod countries;
mod countries_data;
mod events;
mod languages;
mod locations;
mod object_states;
mod permissions;
mod roles;
mod root;
mod sections;
mod sessions;
mod stored;
pub mod throttle;
mod trash;
mod tree;
mod tree_changes;
mod url_aliases;
mod users;
mod views;

use cairn_runtime::http::Settings;
use config::ServeArgs;
use mount::Services;
use shared::{ServiceSettings, Shared};
use std::sync::Arc;

/// Opens the database and builds the services and the HTTP settings of each dialect served,
/// the first one foremost.
pub async fn setup(args: &ServeArgs) -> anyhow::Result<(Arc<Services>, Vec<Arc<Settings>>)> {
    let dialects = args.api.dialects()?;
    let db = args.db.open().await?;
    if db.created() {
        tracing::info!(
            database = args.db.url(),
            "created a new database with the clean-install content; log in as admin / publish"
        );
    }
    if args.metrics != config::Metrics::Off {
        metrics::install();
    }
    let mut languages = Vec::new();
    for l in &args.languages {
        let (code, name) = l.split_once('=').ok_or_else(|| {
            anyhow::anyhow!("--language '{l}': give CODE=Name, e.g. pol-PL=Polish")
        })?;
        languages.push((code.trim().to_string(), name.trim().to_string()));
    }
    db.ensure_languages(&languages).await?;
    let sub = args.api.sub_folder.trim_end_matches('/');
    let cookie_path = if sub.is_empty() {
        "/".to_string()
    } else {
        format!("/{}", sub.trim_start_matches('/'))
    };
    let storage_uri = format!("{}/var/storage", args.api.sub_folder.trim_end_matches('/'));
    let storage_uri = if storage_uri.starts_with('/') {
        storage_uri
    } else {
        format!("/{storage_uri}")
    };
    let files = args.storage.open(&storage_uri)?;
    files.check().await?;
    let variations = args.variations()?;
    let workers = args.render_workers();
    let service = Shared::new(
        db,
        ServiceSettings {
            session_cookie: args.session_cookie(),
            session_idle: args.session_idle,
            secure_cookie: args.secure_cookie,
            cookie_path,
            archived_versions: usize::from(args.archived_versions),
            storage_uri: storage_uri.clone(),
            metrics_here: args.metrics == config::Metrics::On,
            login_throttle: throttle::ThrottleSettings {
                free_attempts: args.login_free_attempts,
                base_delay: std::time::Duration::from_millis(args.login_delay_ms),
                max_delay: std::time::Duration::from_secs(args.login_max_delay),
            },
            rank_documents: args.rank_documents,
            cache_bytes: args.cache_mib * 1024 * 1024,
            jwt_key: (args.jwt_key_file.as_deref())
                .map(jwt::Key::read_file)
                .transpose()?,
            jwt_ttl: args.jwt_ttl,
        },
        field_types::Registry::new(&args.api.field_type_prefix),
        Arc::new(files),
        Arc::new(cascades::Cascades),
        images::Images::new(variations, workers, args.image_queue as usize),
    );
    // The public answers in flight, counted across dialects when caches in front are purged:
    // purges wait for them.
    let in_flight = std::sync::Arc::new(cairn_runtime::http::InFlight::default());
    let counted = (!args.purge_urls.is_empty()).then(|| in_flight.clone());
    let settings = dialects
        .into_iter()
        .map(|wire| {
            Arc::new(Settings {
                wire,
                cors_origins: args.cors_origins.clone(),
                max_body: args.max_body_mib * 1024 * 1024,
                edge: cairn_runtime::http::EdgeSettings {
                    ttl: args.http_cache_ttl,
                    tag_header: args.http_cache_tag_header.clone(),
                    in_flight: counted.clone(),
                },
            })
        })
        .collect();
    // A new database's clean-install content has no search documents yet: that is no news.
    let indexed = service.catch_up_text().await?;
    if indexed > 0 && !service.db.created() {
        tracing::info!(
            indexed,
            "full-text search: indexed the published content items it did not know yet \
             (a database from a version without full-text search)"
        );
    }
    tokio::spawn(cairn_store::maintenance::keep_up(service.db.clone()));
    tokio::spawn(events::prune_every_minute(
        service.db.clone(),
        args.events_kept,
    ));
    let purges = http_cache::spawn_purgers(
        service.db.clone(),
        service.feed.subscribe(),
        http_cache::PurgeSettings {
            urls: args.purge_urls.clone(),
            method: args.purge_method.clone(),
            header: args.purge_header.clone(),
            in_flight: in_flight.clone(),
        },
    )
    .await?;
    let service = Arc::new(service);
    let listening = service.clone();
    service
        .db
        .listen(changes::CHANNEL, move || listening.changed_elsewhere())
        .await?;
    Ok((Arc::new(Services::new(service, purges)), settings))
}
