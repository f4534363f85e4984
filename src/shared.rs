//! What every family's service shares: the database, the settings, the field types, the
//! file storage and the caches, with the helpers the families call on each other's data.

use crate::credentials::CredentialCache;
use crate::field_types::files::Uploads;
use crate::field_types::{FieldIds, FieldType, Registry, ValueContext};
use crate::grants::PermissionCache;
use cairn_store::Db;
use std::sync::Arc;

/// Settings the services read.
#[derive(Debug, Clone)]
pub struct ServiceSettings {
    /// The session cookie's name.
    pub session_cookie: String,
    /// Seconds a session may stay idle.
    pub session_idle: i64,
    /// Send the session cookie with `Secure`.
    pub secure_cookie: bool,
    /// The cookie's `Path` (the sub-folder, or `/`).
    pub cookie_path: String,
    /// Archived versions kept per content item; older ones go when a version is published.
    pub archived_versions: usize,
    /// The path uploaded files are served from (`/var/storage`).
    pub storage_uri: String,
    /// Serve `/metrics` on the API's own listener.
    pub metrics_here: bool,
    /// How failed logins slow down further attempts.
    pub login_throttle: crate::throttle::ThrottleSettings,
    /// The documents a full-text search may rank (`full_text::Counts::ranking`).
    pub rank_documents: u64,
    /// Bytes of rendered answers the response cache holds; 0: no cache.
    pub cache_bytes: u64,
    /// The key JSON Web Tokens are signed with (`--jwt-key-file`); else the database's.
    pub jwt_key: Option<crate::jwt::Key>,
    /// Seconds a JSON Web Token is valid.
    pub jwt_ttl: i64,
}

/// The state the family services share (`mount.rs` hands each one an `Arc` of it).
pub struct Shared {
    pub db: Db,
    pub settings: ServiceSettings,
    /// Every field type, by identifier.
    pub field_types: Registry,
    /// Where uploaded files are kept.
    pub files: Arc<crate::storage::Storage>,
    /// Image variations, rendered and kept.
    pub images: crate::images::Images,
    pub(crate) credentials: CredentialCache,
    /// Accounts found by login, kept within a generation (cached reads) or a commit mark.
    pub(crate) accounts: crate::credentials::Kept<cairn_store::entity::user::Model>,
    /// Sessions found by id, kept within a commit mark.
    pub(crate) sessions: crate::credentials::Kept<cairn_store::entity::user_session::Model>,
    /// Issues and verifies JSON Web Tokens.
    pub(crate) tokens: crate::jwt::Tokens,
    /// Failed logins, which slow down the next attempts.
    pub(crate) throttle: crate::throttle::LoginThrottle,
    /// The Policies of recent callers.
    pub(crate) permissions: PermissionCache,
    /// The languages.
    pub(crate) languages: crate::language_list::Languages,
    /// Defined content types with their Field definitions, by id.
    pub(crate) types: crate::cache::Cache<i64, crate::content_rows::TypeInfo>,
    /// Rendered answers of GETs (`responses.rs`); none when turned off.
    pub(crate) responses: Option<cairn_runtime::ResponseCache>,
    /// Shared reads of the repository's generation (`responses.rs`).
    pub(crate) generations: crate::generations::Generations,
    /// Wakes the change feed's streams.
    pub feed: crate::feed::Feed,
    /// What the tree's neighbours do when it changes (registered by the app).
    pub(crate) tree_changes: Arc<dyn crate::tree_changes::TreeChanges>,
}

impl Shared {
    pub(crate) fn new(
        db: Db,
        settings: ServiceSettings,
        field_types: Registry,
        files: Arc<crate::storage::Storage>,
        tree_changes: Arc<dyn crate::tree_changes::TreeChanges>,
        images: crate::images::Images,
    ) -> Shared {
        let throttle = settings.login_throttle;
        let cache_bytes = settings.cache_bytes;
        let tokens = crate::jwt::Tokens::new(settings.jwt_key.clone(), settings.jwt_ttl);
        Shared {
            db,
            settings,
            field_types,
            files,
            images,
            credentials: CredentialCache::default(),
            accounts: Default::default(),
            sessions: Default::default(),
            tokens,
            throttle: crate::throttle::LoginThrottle::new(throttle),
            permissions: PermissionCache::new("permissions", 10_000),
            languages: crate::language_list::Languages::default(),
            types: crate::cache::Cache::new("content_types", 1_000),
            responses: (cache_bytes > 0).then(|| cairn_runtime::ResponseCache::new(cache_bytes)),
            generations: crate::generations::Generations::new(),
            feed: crate::feed::Feed::default(),
            tree_changes,
        }
    }
}

impl Shared {
    /// The Policies of the user `user_id` (kept until they change), read on `db`.
    pub(crate) async fn grants_of(
        &self,
        db: &impl cairn_store::Connection,
        user_id: i64,
    ) -> crate::error::Result<Arc<crate::grants::Grants>> {
        self.permissions
            .get(user_id, async || {
                crate::grants::Grants::load(db, user_id).await
            })
            .await
    }

    /// The defined content type `id` with its Field definitions (kept until a content type
    /// changes).
    pub(crate) async fn defined_type(
        &self,
        db: &impl cairn_store::Connection,
        id: i64,
    ) -> crate::error::Result<Arc<crate::content_rows::TypeInfo>> {
        self.types
            .get(id, async || crate::content_rows::type_info(db, id).await)
            .await
    }

    /// The field type of a stored bare name (`string`).
    pub fn field_type(&self, bare: &str) -> Option<&dyn FieldType> {
        self.field_types.named(bare)
    }

    /// What field types need to read and write values.
    pub fn value_context(&self, field: Option<FieldIds>) -> ValueContext<'_> {
        ValueContext {
            files: self.files.as_ref(),
            variations: self.images.variations().names(),
            field,
            asset: None,
            uploads: None,
        }
    }

    /// What field types need to read input, noting the files they store in `uploads`.
    pub fn input_context<'a>(&'a self, uploads: &'a Uploads) -> ValueContext<'a> {
        ValueContext {
            uploads: Some(uploads),
            ..self.value_context(None)
        }
    }
}
