//! The command line: `cairn serve`, `cairn openapi` and the operator's commands, every option
//! also an environment variable.

use cairn_runtime::media::Wire;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::net::SocketAddr;

#[derive(Debug, Parser)]
#[command(
    name = "cairn",
    version,
    about = "A content repository server speaking the Ibexa DXP / eZ Platform REST API v2",
    long_about = "cairn serves the content repository REST API v2 of Ibexa DXP / eZ Platform in XML \
and JSON from one binary. Without options, `cairn serve` listens on 127.0.0.1:8080 with an \
embedded SQLite database (var/cairn.db, created with the clean-install data when missing) and \
uploaded files in var/storage; log in as admin / publish."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Parses the command line (exiting with clap's message when it is wrong), noting whether
    /// `--database-url` was left to its default: only then may an old `./cairn.db` be used.
    pub fn parse_args() -> Cli {
        let matches = Cli::command().get_matches();
        let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
        let mut leaf = &matches;
        while let Some((_, m)) = leaf.subcommand() {
            leaf = m;
        }
        let defaulted = leaf.ids().any(|id| id == "database_url")
            && leaf.value_source("database_url") == Some(clap::parser::ValueSource::DefaultValue);
        if let Some(db) = cli.command.db_mut() {
            db.defaulted = defaulted;
        }
        cli
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Runs the server.
    Serve(Box<ServeArgs>),
    /// Prints the OpenAPI 3.1 document of the API in the first dialect (`--vendor ez` for
    /// the eZ Platform one).
    Openapi(ApiArgs),
    /// Manages user accounts.
    #[command(subcommand)]
    User(UserCommand),
    /// Adds or lists the languages content may be translated into.
    #[command(subcommand)]
    Language(LanguageCommand),
    /// Checks the tree of Locations, its URL aliases and dangling rows; exits with 1 and a
    /// report when anything is off.
    Check(DbArgs),
    /// Imports content items from a JSON Lines file, one ContentCreate body per line (as
    /// `POST /content/objects` takes it in JSON), in batches of one transaction each; takes
    /// the server's options for the database and storage.
    Import(Box<ImportArgs>),
    /// Brings a whole eZ Platform 2.5/3.x or Ibexa DXP 4.x/5.0 repository over from its
    /// database (legacy storage), ids kept, into a newly installed repository; takes the
    /// server's options for the database and storage.
    Migrate(Box<MigrateArgs>),
    /// Manages uploaded files.
    #[command(subcommand)]
    Storage(StorageCommand),
    /// Manages image variations.
    #[command(subcommand)]
    Images(ImagesCommand),
    /// GraphQL: prints the schema `/graphql` answers.
    #[command(subcommand)]
    Graphql(GraphqlCommand),
    /// Writes a consistent copy of the SQLite database to FILE, also while the server runs
    /// (for PostgreSQL, use pg_dump).
    Backup {
        /// Where the copy goes (must not exist).
        file: std::path::PathBuf,
        #[command(flatten)]
        db: DbArgs,
    },
}

impl Command {
    /// The database options of the command, if it opens one.
    fn db_mut(&mut self) -> Option<&mut DbArgs> {
        match self {
            Command::Serve(args) => Some(&mut args.db),
            Command::Import(args) => Some(&mut args.serve.db),
            Command::Migrate(args) => Some(&mut args.serve.db),
            Command::Images(ImagesCommand::Render(args)) => Some(&mut args.serve.db),
            Command::Graphql(GraphqlCommand::Schema(args)) => Some(&mut args.db),
            Command::User(UserCommand::Password { db, .. })
            | Command::User(UserCommand::GrantAdmin { db, .. })
            | Command::Language(LanguageCommand::Add { db, .. })
            | Command::Language(LanguageCommand::List(db))
            | Command::Check(db)
            | Command::Storage(StorageCommand::Gc { db, .. })
            | Command::Backup { db, .. } => Some(db),
            Command::Openapi(_) => None,
        }
    }
}

/// Where uploaded files (images, binary files, media) are kept.
#[derive(Debug, Clone, Args)]
pub struct StorageArgs {
    /// Directory of uploaded files, when `--storage-url` is not given.
    #[arg(long, env = "CAIRN_STORAGE_DIR", default_value = "var/storage")]
    pub storage_dir: std::path::PathBuf,
    /// The storage backend: `file:///path` (a directory) or `s3://bucket/prefix` (AWS S3 and
    /// S3-compatible services: MinIO, Ceph, R2, GCS; endpoint, region and credentials from
    /// `AWS_ENDPOINT_URL`, `AWS_REGION`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`).
    /// Several instances share their uploads through one bucket.
    #[arg(long, env = "CAIRN_STORAGE_URL")]
    pub storage_url: Option<String>,
}

impl StorageArgs {
    /// The storage these options name, its files served under `uri_prefix`.
    pub fn open(&self, uri_prefix: &str) -> anyhow::Result<crate::storage::Storage> {
        crate::storage::Storage::open(self.storage_url.as_deref(), &self.storage_dir, uri_prefix)
    }
}

#[derive(Debug, Subcommand)]
pub enum StorageCommand {
    /// Lists the stored files no version references and removes those stored longer ago
    /// than the grace period (a file within it may belong to a write not yet committed).
    Gc {
        /// Only list what would be removed.
        #[arg(long)]
        dry_run: bool,
        /// Minutes a file is kept after it was last stored.
        #[arg(long, default_value_t = 60)]
        grace_minutes: u64,
        #[command(flatten)]
        db: DbArgs,
        #[command(flatten)]
        storage: StorageArgs,
    },
}

#[derive(Debug, Subcommand)]
pub enum GraphqlCommand {
    /// Prints the SDL of the GraphQL schema for the repository's content types (the domain
    /// schema and the reference's fixed types), as `/graphql` serves it; takes the server's
    /// options for the database and the image variations.
    Schema(Box<ServeArgs>),
}

#[derive(Debug, Subcommand)]
pub enum ImagesCommand {
    /// Renders ahead of time the variations of every stored image onto the storage backend,
    /// skipping those kept there, as first requests would; reports what was rendered, found
    /// kept, and could not be rendered (then exits with 1). Takes the server's options for
    /// the database, the storage and the variations.
    Render(Box<RenderArgs>),
}

#[derive(Debug, Args)]
pub struct RenderArgs {
    /// A variation to render (repeat for several); without it, every configured one.
    #[arg(long = "variation", value_name = "NAME")]
    pub variations: Vec<String>,
    #[command(flatten)]
    pub serve: ServeArgs,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The JSON Lines file (`-` for standard input).
    pub file: std::path::PathBuf,
    /// Lines per transaction.
    #[arg(long, default_value_t = 100)]
    pub batch: usize,
    /// The user the import acts as, with its Policies.
    #[arg(long, default_value = "admin")]
    pub login: String,
    /// Leave the items as drafts instead of publishing them.
    #[arg(long)]
    pub drafts: bool,
    #[command(flatten)]
    pub serve: ServeArgs,
}

#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// The old site's database: `mysql://user:password@host/db` (MySQL, MariaDB) or
    /// `postgres://user@host/db`.
    #[arg(long)]
    pub from: String,
    /// Read and check everything, write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Replace a repository written to since its install (else it is refused).
    #[arg(long)]
    pub replace: bool,
    /// The old site's storage directory (or its root, holding `var/site/storage`): the files
    /// of image, binary file and media fields are stored on cairn's backend.
    #[arg(long)]
    pub files: Option<std::path::PathBuf>,
    /// No progress lines on standard error.
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub serve: ServeArgs,
}

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Sets the password of the user LOGIN (read from the terminal, or the first line of
    /// standard input) and ends its sessions.
    Password {
        login: String,
        #[command(flatten)]
        db: DbArgs,
    },
    /// Makes the user LOGIN an administrator again: assigns it the Administrator Role
    /// (recreated, or given back its `*/*` Policy, when gone) and enables its account. The way
    /// back when no account may administrate the repository any more.
    GrantAdmin {
        login: String,
        #[command(flatten)]
        db: DbArgs,
    },
}

#[derive(Debug, Subcommand)]
pub enum LanguageCommand {
    /// Adds the language CODE (`pol-PL`) named NAME.
    Add {
        code: String,
        name: String,
        #[command(flatten)]
        db: DbArgs,
    },
    /// Lists the languages.
    List(DbArgs),
}

/// The database the server or a command works on.
#[derive(Debug, Clone, Args)]
pub struct DbArgs {
    /// Database: `sqlite://<file>` (created when missing, with its folder) or
    /// `postgres://user@host/db`. Without it, a `cairn.db` an older version left in the
    /// current directory is used while `var/cairn.db` does not exist.
    #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE)]
    pub database_url: String,
    /// `--database-url` was given neither on the command line nor in the environment (set by
    /// [`Cli::parse_args`]).
    #[arg(skip)]
    pub defaulted: bool,
    /// Database pool size; at least 2 (on PostgreSQL one connection of the pool listens for
    /// the changes of other instances).
    #[arg(long, env = "CAIRN_DB_POOL", default_value_t = 16,
          value_parser = clap::value_parser!(u32).range(2..))]
    pub db_pool: u32,
    /// The longest a statement may run on PostgreSQL, and a search's statement on SQLite, in
    /// seconds (0: no limit); a request whose query takes longer gets a 503. A statement
    /// waits as long for a connection of the pool (30 s with no limit), then gets a 503 too.
    #[arg(long, env = "CAIRN_STATEMENT_TIMEOUT", default_value_t = 30)]
    pub statement_timeout: u64,
}

/// The default database, under `var/` beside the uploaded files (`var/storage`).
pub const DEFAULT_DATABASE: &str = "sqlite://var/cairn.db";

/// Where versions before `var/` kept the default database: the current directory.
const OLD_DEFAULT_DATABASE: &str = "sqlite://cairn.db";

impl DbArgs {
    /// The database to open: `--database-url`, except that the default, when it was not
    /// named, gives way to a `./cairn.db` left by an older version while `var/cairn.db` does
    /// not exist.
    pub fn url(&self) -> &str {
        let file = |url: &'static str| std::path::Path::new(&url["sqlite://".len()..]);
        if self.defaulted
            && self.database_url == DEFAULT_DATABASE
            && !file(DEFAULT_DATABASE).exists()
            && file(OLD_DEFAULT_DATABASE).exists()
        {
            return OLD_DEFAULT_DATABASE;
        }
        &self.database_url
    }

    /// Opens (and migrates) the database.
    pub async fn open(&self) -> anyhow::Result<cairn_store::Db> {
        let url = self.url();
        if url != self.database_url {
            tracing::warn!(
                database = url,
                "using ./cairn.db, where older versions kept the database; move it to \
                 var/cairn.db (with its -wal and -shm files, if any, while cairn is stopped) \
                 to use the new default place"
            );
        }
        cairn_store::Db::open(&cairn_store::DbOptions {
            url: url.to_string(),
            max_connections: self.db_pool,
            statement_timeout: (self.statement_timeout > 0)
                .then(|| std::time::Duration::from_secs(self.statement_timeout)),
        })
        .await
        .map_err(|e| anyhow::anyhow!("cannot open the database {url}: {e}"))
    }
}

/// Where the API lives: its dialects (vendor and prefix) and the sub-folder.
#[derive(Debug, Clone, Args)]
pub struct ApiArgs {
    /// Vendor segments of media types (`application/vnd.<vendor>.api.*`), one per dialect
    /// served: `ibexa` (Ibexa DXP 4.x) and `ez` (eZ Platform 2.5/3.x) side by side by default.
    /// Repeat or separate with commas.
    #[arg(
        long = "vendor",
        env = "CAIRN_VENDOR",
        value_delimiter = ',',
        default_value = "ibexa,ez"
    )]
    pub vendors: Vec<String>,
    /// Path prefixes of the dialects, one per vendor in the same order; without it, the
    /// reference's: /api/ibexa/v2 for ibexa, /api/ezp/v2 for ez, /api/<vendor>/v2 for others.
    #[arg(long = "prefix", env = "CAIRN_PREFIX", value_delimiter = ',')]
    pub prefixes: Vec<String>,
    /// A sub-folder the site is installed in, before the prefix (e.g. /cms); none by default.
    #[arg(
        long,
        env = "CAIRN_SUB_FOLDER",
        default_value = "",
        hide_default_value = true
    )]
    pub sub_folder: String,
    /// Prefix of field type identifiers (`ez` gives `ezstring`).
    #[arg(long, env = "CAIRN_FIELD_TYPE_PREFIX", default_value = "ez")]
    pub field_type_prefix: String,
}

impl ApiArgs {
    /// The dialects served, the first one foremost (`cairn openapi`, the front page): each
    /// vendor with its full path prefix, sub-folder + prefix (`/cms/api/ibexa/v2`).
    pub fn dialects(&self) -> anyhow::Result<Vec<Wire>> {
        if self.vendors.is_empty() {
            anyhow::bail!("--vendor: give at least one vendor");
        }
        if !self.prefixes.is_empty() && self.prefixes.len() != self.vendors.len() {
            anyhow::bail!(
                "--prefix: give one prefix per vendor ({} vendors: {}), or none for the defaults",
                self.vendors.len(),
                self.vendors.join(", ")
            );
        }
        let sub = self.sub_folder.trim_end_matches('/');
        let sub = if sub.is_empty() || sub.starts_with('/') {
            sub.to_string()
        } else {
            format!("/{sub}")
        };
        let mut dialects: Vec<Wire> = Vec::new();
        for (i, vendor) in self.vendors.iter().enumerate() {
            let vendor = vendor.trim();
            if vendor.is_empty()
                || !vendor
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-')
            {
                anyhow::bail!("--vendor '{vendor}': letters, digits and '-' only");
            }
            let prefix = match self.prefixes.get(i) {
                Some(p) => p.trim().to_string(),
                None => default_prefix(vendor),
            };
            let full = format!("{sub}/{}", prefix.trim_matches('/'));
            let wire = Wire::new(vendor, &full);
            if let Some(same) = dialects.iter().find(|d| d.prefix == wire.prefix) {
                anyhow::bail!(
                    "--prefix: the vendors {} and {vendor} share the prefix '{}'",
                    same.vendor,
                    wire.prefix
                );
            }
            dialects.push(wire);
        }
        if dialects.len() > 1 && dialects.iter().any(|d| d.prefix.is_empty()) {
            anyhow::bail!("--prefix: a dialect at the root is served alone (one --vendor)");
        }
        Ok(dialects)
    }
}

/// A header name as given on the command line.
fn parse_header_name(s: &str) -> Result<poem::http::HeaderName, String> {
    poem::http::HeaderName::from_bytes(s.trim().as_bytes())
        .map_err(|_| format!("`{s}` is not a header name"))
}

/// The reference's prefix of a vendor's dialect.
fn default_prefix(vendor: &str) -> String {
    match vendor {
        "ez" => "/api/ezp/v2".into(),
        v => format!("/api/{v}/v2"),
    }
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "CAIRN_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    #[command(flatten)]
    pub db: DbArgs,
    /// Seconds to let requests in flight finish on SIGTERM or SIGINT.
    #[arg(long, env = "CAIRN_SHUTDOWN_GRACE", default_value_t = 10)]
    pub shutdown_grace: u64,
    #[command(flatten)]
    pub api: ApiArgs,
    /// Log filter (tracing `EnvFilter` syntax: `info`, `cairn=debug,sqlx=warn`, ...).
    #[arg(long, env = "CAIRN_LOG", default_value = "info")]
    pub log: String,
    /// Write logs as JSON lines.
    #[arg(long, env = "CAIRN_LOG_JSON")]
    pub log_json: bool,
    /// Origins allowed to call the API from browsers (CORS); `*` allows any. Repeat or
    /// separate with commas.
    #[arg(
        long = "cors-origin",
        env = "CAIRN_CORS_ORIGINS",
        value_delimiter = ','
    )]
    pub cors_origins: Vec<String>,
    /// Name of the session cookie; without it, the reference's: eZSESSID followed by the md5
    /// of the siteaccess `site` (eZSESSID98defd6ee70dfb1dea416cecdf391f58).
    #[arg(long, env = "CAIRN_SESSION_NAME")]
    pub session_name: Option<String>,
    /// Seconds a session may stay idle before it ends.
    #[arg(long, env = "CAIRN_SESSION_IDLE", default_value_t = 3600)]
    pub session_idle: i64,
    /// A file holding the key that signs JSON Web Tokens (`POST /user/token/jwt`, HS256; 32
    /// bytes at least, whitespace around them ignored). Without it, a key is generated on first
    /// use and kept in the database, shared by every instance on it.
    #[arg(long, env = "CAIRN_JWT_KEY_FILE")]
    pub jwt_key_file: Option<std::path::PathBuf>,
    /// Seconds a JSON Web Token is valid after it is issued (the reference's default: 3600).
    #[arg(long, env = "CAIRN_JWT_TTL", default_value_t = 3600,
          value_parser = clap::value_parser!(i64).range(1..))]
    pub jwt_ttl: i64,
    /// Mark the session cookie `Secure` (sites served over HTTPS).
    #[arg(long, env = "CAIRN_SECURE_COOKIE")]
    pub secure_cookie: bool,
    /// A language content may be translated into, added when missing: `CODE=Name`
    /// (`pol-PL=Polish`). Repeat for several; `eng-GB` is always there.
    #[arg(long = "language", env = "CAIRN_LANGUAGES", value_delimiter = ',')]
    pub languages: Vec<String>,
    /// Archived versions kept per content item (older ones are deleted on publish; 0-50).
    #[arg(long, env = "CAIRN_ARCHIVED_VERSIONS", default_value_t = 5, value_parser = clap::value_parser!(u8).range(0..=50))]
    pub archived_versions: u8,
    #[command(flatten)]
    pub storage: StorageArgs,
    /// A YAML file of image variations in the reference's shape (`name: {reference, filters,
    /// format, quality}`), added to (or replacing) the reference's defaults; see
    /// docs/configuration.md.
    #[arg(long, env = "CAIRN_IMAGE_VARIATIONS")]
    pub image_variations: Option<std::path::PathBuf>,
    /// Image variations rendered at once (threads); 0: one per core.
    #[arg(long, env = "CAIRN_IMAGE_WORKERS", default_value_t = 0)]
    pub image_workers: usize,
    /// Image variations waiting or being rendered at most; past it a request for a new one
    /// is answered 503 with `Retry-After`.
    #[arg(long, env = "CAIRN_IMAGE_QUEUE", default_value_t = 32,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub image_queue: u32,
    /// Largest request body accepted, in MiB (content with base64 files can be large).
    #[arg(long, env = "CAIRN_MAX_BODY_MIB", default_value_t = 64)]
    pub max_body_mib: usize,
    /// Failed logins (per login, and per client address) allowed before each further one
    /// makes the next attempt wait.
    #[arg(long, env = "CAIRN_LOGIN_FREE_ATTEMPTS", default_value_t = 5)]
    pub login_free_attempts: u32,
    /// The first wait after the free attempts, in milliseconds; each further failure doubles it.
    #[arg(long, env = "CAIRN_LOGIN_DELAY_MS", default_value_t = 1000)]
    pub login_delay_ms: u64,
    /// The longest wait between login attempts, in seconds.
    #[arg(long, env = "CAIRN_LOGIN_MAX_DELAY", default_value_t = 900)]
    pub login_max_delay: u64,
    /// The documents a full-text search may rank: a query's rarest words rank its hits while
    /// the documents holding them total at most this (the rarest always ranks); hits of the
    /// other words follow, by id, with score 0. Higher ranks long queries fully, at a cost.
    #[arg(long, env = "CAIRN_RANK_DOCUMENTS", default_value_t = 5_000)]
    pub rank_documents: u64,
    /// Memory for rendered GET answers kept for the next identical request of the same caller
    /// (MiB); a change drops those it touched, on every instance. 0 turns the cache off.
    #[arg(long, env = "CAIRN_CACHE_MIB", default_value_t = 64)]
    pub cache_mib: u64,
    /// Events of the change feed (`/events`) kept; older ones are pruned every minute.
    #[arg(long, env = "CAIRN_EVENTS_KEPT", default_value_t = 100_000)]
    pub events_kept: u64,
    /// Seconds a shared HTTP cache in front (Varnish, a CDN) may keep a public answer
    /// (`s-maxage`; the reference's default: 60).
    #[arg(long, env = "CAIRN_HTTP_CACHE_TTL", default_value_t = 60)]
    pub http_cache_ttl: u32,
    /// The response header an answer's cache tags are written in: `xkey` (Varnish),
    /// `Surrogate-Key` (Fastly), `Cache-Tag` (Cloudflare).
    #[arg(long, env = "CAIRN_HTTP_CACHE_TAG_HEADER", default_value = "xkey",
          value_parser = parse_header_name)]
    pub http_cache_tag_header: poem::http::HeaderName,
    /// A shared HTTP cache to purge (repeatable): every committed change is sent there as the
    /// tags it touched, from the change feed's outbox, retried until the cache takes it.
    /// `http://host:port` for Varnish with the reference's VCL (`PURGEKEYS` with `xkey-purge`).
    #[arg(long = "purge-url", env = "CAIRN_PURGE_URLS", value_delimiter = ',')]
    pub purge_urls: Vec<String>,
    /// The method and the header a purge is sent with: `PURGEKEYS` and `xkey-purge` for
    /// Varnish (`xkey-softpurge` serves the old answer once while it fetches anew), `POST`
    /// and `Surrogate-Key` for Fastly's purge endpoint.
    #[arg(long, env = "CAIRN_PURGE_METHOD", default_value = "PURGEKEYS")]
    pub purge_method: String,
    #[arg(long, env = "CAIRN_PURGE_HEADER", default_value = "xkey-purge",
          value_parser = parse_header_name)]
    pub purge_header: poem::http::HeaderName,
    /// Prometheus metrics at `/metrics`: `on` (on the API's listener), `off`, or an address
    /// to serve them on alone (`127.0.0.1:9100`).
    #[arg(long, env = "CAIRN_METRICS", default_value = "on")]
    pub metrics: Metrics,
}

/// Where `/metrics` is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metrics {
    On,
    Off,
    At(SocketAddr),
}

impl std::str::FromStr for Metrics {
    type Err = String;

    fn from_str(s: &str) -> Result<Metrics, String> {
        match s {
            "on" => Ok(Metrics::On),
            "off" => Ok(Metrics::Off),
            addr => addr.parse().map(Metrics::At).map_err(|_| {
                format!("'{addr}' is not on, off or an address such as 127.0.0.1:9100")
            }),
        }
    }
}

impl ServeArgs {
    /// The image variations offered: the reference's defaults with `--image-variations`.
    pub fn variations(&self) -> anyhow::Result<crate::images::Variations> {
        match &self.image_variations {
            Some(path) => crate::images::Variations::from_file(path),
            None => Ok(crate::images::Variations::defaults()),
        }
    }

    /// Threads rendering image variations at once (`--image-workers`; 0: one per core).
    pub fn render_workers(&self) -> usize {
        match self.image_workers {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }

    /// The session cookie name.
    pub fn session_cookie(&self) -> String {
        match &self.session_name {
            Some(n) if n.starts_with("eZSESSID") => n.clone(),
            Some(n) => format!("eZSESSID_{n}"),
            None => {
                use md5::{Digest, Md5};
                let hash = Md5::digest(b"site");
                let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
                format!("eZSESSID{hex}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prefixes(a: &ApiArgs) -> Vec<(String, String)> {
        let dialects = a.dialects().unwrap();
        dialects.into_iter().map(|w| (w.vendor, w.prefix)).collect()
    }

    #[test]
    fn both_dialects_by_default_under_the_sub_folder() {
        let Command::Openapi(mut a) = Cli::parse_from(["cairn", "openapi"]).command else {
            panic!("openapi");
        };
        let pair = |v: &str, p: &str| (v.to_string(), p.to_string());
        assert_eq!(
            prefixes(&a),
            [pair("ibexa", "/api/ibexa/v2"), pair("ez", "/api/ezp/v2")]
        );
        a.sub_folder = "cms/".into();
        assert_eq!(prefixes(&a)[0], pair("ibexa", "/cms/api/ibexa/v2"));
        a.vendors = vec!["ez".into()];
        a.prefixes = vec!["/api/ezp/v2/".into()];
        assert_eq!(prefixes(&a), [pair("ez", "/cms/api/ezp/v2")]);
        a.vendors = vec!["ibexa".into(), "ez".into()];
        assert!(a.dialects().is_err(), "one prefix for two vendors");
        a.prefixes = vec!["/api/v2".into(), "/api/v2".into()];
        assert!(a.dialects().is_err(), "one prefix twice");
    }

    #[test]
    fn default_session_cookie_is_the_references() {
        let args = Cli::parse_from(["cairn", "serve"]);
        let Command::Serve(s) = args.command else {
            panic!("serve");
        };
        assert_eq!(
            s.session_cookie(),
            "eZSESSID98defd6ee70dfb1dea416cecdf391f58"
        );
    }
}
