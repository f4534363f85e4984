//! The `cairn` command: `cairn serve`, `cairn openapi`, and the operator's commands
//! (`user password|grant-admin`, `language add|list`, `check`, `storage gc`, `backup`,
//! `import`, `migrate`, `images render`, `graphql schema`).

use cairn::config::{
    Cli, Command, GraphqlCommand, ImagesCommand, ImportArgs, LanguageCommand, Metrics, RenderArgs,
    ServeArgs, StorageCommand, UserCommand,
};
use std::io::IsTerminal;
use std::time::Duration;
use tracing_subscriber::EnvFilter;

/// mimalloc instead of the C library's allocator: a request allocates and frees many small
/// objects on several threads, where glibc's `malloc` and `free` took a sixth of the server's
/// time (profile in `crates/bench/README.md`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse_args();
    match cli.command {
        Command::Openapi(api) => {
            let first = &api.dialects()?[0];
            print!("{}", cairn::app::openapi_document(first));
            Ok(())
        }
        Command::Serve(args) => serve(*args).await,
        Command::Graphql(GraphqlCommand::Schema(args)) => {
            let (services, _) = cairn::setup(&args).await?;
            print!("{}", cairn::graphql::sdl(&services).await?);
            services.db.close().await?;
            Ok(())
        }
        Command::Import(args) => import(*args).await,
        Command::Migrate(args) => migrate(*args).await,
        Command::Images(ImagesCommand::Render(args)) => render_images(*args).await,
        Command::User(UserCommand::Password { login, db }) => {
            let password = read_password(&login)?;
            let db = db.open().await?;
            cairn::admin::set_password(&db, &login, &password).await?;
            db.close().await?;
            eprintln!("The password of '{login}' is set; its sessions have ended.");
            Ok(())
        }
        Command::User(UserCommand::GrantAdmin { login, db }) => {
            let db = db.open().await?;
            let done = cairn::admin::grant_admin(&db, &login).await?;
            db.close().await?;
            eprintln!("'{login}' is an administrator: {done}.");
            Ok(())
        }
        Command::Language(LanguageCommand::Add { code, name, db }) => {
            let db = db.open().await?;
            cairn::admin::add_language(&db, &code, &name).await?;
            db.close().await?;
            eprintln!("Added {code} ({name}).");
            Ok(())
        }
        Command::Language(LanguageCommand::List(db)) => {
            let db = db.open().await?;
            for (code, name, enabled) in cairn::admin::languages(&db).await? {
                let off = if enabled { "" } else { " (disabled)" };
                println!("{code}\t{name}{off}");
            }
            db.close().await?;
            Ok(())
        }
        Command::Check(db) => {
            let db = db.open().await?;
            let problems = cairn::admin::check(&db).await?;
            db.close().await?;
            report_check(&problems)
        }
        Command::Storage(StorageCommand::Gc {
            dry_run,
            grace_minutes,
            db,
            storage,
        }) => {
            let db = db.open().await?;
            let storage = storage.open("/var/storage")?;
            let grace = Duration::from_secs(grace_minutes * 60);
            let found = cairn::storage::collect(db.conn(), &storage, grace, dry_run).await?;
            db.close().await?;
            let verb = if dry_run { "would remove" } else { "removed" };
            for path in &found.removed {
                println!("{verb} {path}");
            }
            println!(
                "{}: {} referenced, {} unreferenced but stored within {grace_minutes} min (kept), {} {verb}.",
                storage.url,
                found.referenced,
                found.recent.len(),
                found.removed.len()
            );
            Ok(())
        }
        Command::Backup { file, db } => {
            let db = db.open().await?;
            cairn::admin::backup(&db, &file).await?;
            db.close().await?;
            eprintln!("Wrote {}.", file.display());
            Ok(())
        }
    }
}

/// `cairn migrate`: the migration in one transaction, its report on standard output, then
/// the full-text index caught up (as the server does at start-up) and the checks of
/// `cairn check`.
async fn migrate(args: cairn::config::MigrateArgs) -> anyhow::Result<()> {
    logging(&args.serve, false)?;
    let db = args.serve.db.open().await?;
    let files = args.serve.storage.open("/var/storage")?;
    let options = cairn::migrate::Options {
        from: args.from.clone(),
        dry_run: args.dry_run,
        replace: args.replace,
        files: args.files.clone(),
        quiet: args.quiet,
    };
    let started = std::time::Instant::now();
    let report = cairn::migrate::migrate(&db, &files, &options).await?;
    print!("{report}");
    eprintln!("migrated in {:.1} s", started.elapsed().as_secs_f64());
    if args.dry_run {
        db.close().await?;
        return Ok(());
    }
    let started = std::time::Instant::now();
    let (service, _) = cairn::setup(&args.serve).await?;
    service.db.close().await?;
    eprintln!(
        "full-text index caught up in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let started = std::time::Instant::now();
    let problems = cairn::admin::check(&db).await?;
    db.close().await?;
    eprintln!("checked in {:.1} s", started.elapsed().as_secs_f64());
    report_check(&problems)
}

/// `cairn images render`: the variations rendered, with the server's image settings (its
/// workers; a queue as long, so that none waits past it), and the report on standard output.
async fn render_images(args: RenderArgs) -> anyhow::Result<()> {
    let serve = &args.serve;
    let db = serve.db.open().await?;
    let files = serve.storage.open("/var/storage")?;
    files.check().await?;
    let workers = serve.render_workers();
    let images = cairn::images::Images::new(serve.variations()?, workers, workers);
    let started = std::time::Instant::now();
    let done = cairn::admin::render_images(&db, &files, &images, &args.variations, workers).await;
    db.close().await?;
    let done = done?;
    for (path, variation, why) in &done.failed {
        println!("failed {variation} of {path}: {why}");
    }
    println!(
        "{}: {} images; {} variations rendered, {} already kept, {} failed ({:.1} s).",
        files.url,
        done.images,
        done.rendered,
        done.kept,
        done.failed.len(),
        started.elapsed().as_secs_f64()
    );
    if !done.failed.is_empty() {
        std::process::exit(1);
    }
    Ok(())
}

/// Prints what `cairn check` found; exits with 1 when anything is off.
fn report_check(problems: &[cairn::admin::Problem]) -> anyhow::Result<()> {
    if problems.is_empty() {
        println!("The database is consistent.");
        return Ok(());
    }
    for p in problems {
        println!(
            "FAILED {}: {} rows, e.g. {}",
            p.check,
            p.count,
            p.first.join(", ")
        );
    }
    std::process::exit(1);
}

/// The new password: asked on the terminal (twice, not echoed), or the first line of
/// standard input.
fn read_password(login: &str) -> anyhow::Result<String> {
    if std::io::stdin().is_terminal() {
        let first = rpassword::prompt_password(format!("New password for {login}: "))?;
        let again = rpassword::prompt_password("Again: ")?;
        if first != again {
            anyhow::bail!("the passwords differ");
        }
        return Ok(first);
    }
    let mut line = String::new();
    std::io::stdin().read_line(&mut line)?;
    Ok(line.trim_end_matches(['\r', '\n']).to_string())
}

/// Logs as `--log` and `--log-json` say: the server's to standard output, a command's to
/// standard error (its standard output is its report).
fn logging(args: &ServeArgs, server: bool) -> anyhow::Result<()> {
    let filter = EnvFilter::try_new(&args.log)
        .map_err(|e| anyhow::anyhow!("bad --log filter '{}': {e}", args.log))?;
    let to = move || -> Box<dyn std::io::Write> {
        if server {
            Box::new(std::io::stdout())
        } else {
            Box::new(std::io::stderr())
        }
    };
    let logs = tracing_subscriber::fmt().with_writer(to);
    if args.log_json {
        logs.json().with_env_filter(filter).init();
    } else {
        logs.with_env_filter(filter).init();
    }
    Ok(())
}

async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    logging(&args, true)?;
    let (service, settings) = cairn::setup(&args).await?;
    let prefixes: Vec<&str> = settings.iter().map(|s| s.wire.prefix.as_str()).collect();
    let prefixes = prefixes.join(", ");
    let db = service.db.clone();
    let app = cairn::app::app(service.clone(), settings);
    let grace = Some(Duration::from_secs(args.shutdown_grace));
    if let Metrics::At(addr) = args.metrics {
        let metrics = cairn::app::metrics(service.clone());
        let route = poem::Route::new().at("/metrics", metrics);
        tokio::spawn(async move {
            let listener = poem::listener::TcpListener::bind(addr);
            if let Err(e) = poem::Server::new(listener)
                .run_with_graceful_shutdown(route, stopping(), grace)
                .await
            {
                tracing::error!(error = %e, %addr, "the metrics listener failed");
            }
        });
    }
    tracing::info!(
        database = args.db.url(),
        "cairn is serving: open http://{}/ in a browser (the API is under {prefixes})",
        args.listen
    );
    let feed = service.clone();
    let stopped = async move {
        stopping().await;
        feed.feed.stop();
    };
    poem::Server::new(poem::listener::TcpListener::bind(args.listen))
        .run_with_graceful_shutdown(app, stopped, grace)
        .await?;
    db.close().await?;
    tracing::info!("cairn stopped");
    Ok(())
}

/// Resolves on SIGTERM or SIGINT: the server stops accepting and lets requests in flight
/// finish (for the grace period).
async fn stopping() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = interrupt => {}
        _ = terminate => {}
    }
    tracing::info!("stopping: finishing the requests in flight");
}

/// `cairn import`: the file's items, with the rate on standard error as batches commit.
async fn import(args: ImportArgs) -> anyhow::Result<()> {
    let (service, dialects) = cairn::setup(&args.serve).await?;
    let input: Box<dyn std::io::BufRead> = if args.file.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let f = std::fs::File::open(&args.file)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", args.file.display()))?;
        Box::new(std::io::BufReader::new(f))
    };
    let how = cairn::admin::Import {
        login: args.login.clone(),
        batch: args.batch,
        publish: !args.drafts,
    };
    let start = std::time::Instant::now();
    let rate = |n: usize| n as f64 / start.elapsed().as_secs_f64().max(1e-9);
    let result = cairn::admin::import(&service, dialects[0].clone(), input, &how, |n| {
        eprint!("\rimported {n} items ({:.0} items/s)", rate(n));
    })
    .await;
    eprintln!();
    let n = result?;
    eprintln!(
        "Imported {n} items in {:.1} s ({:.0} items/s).",
        start.elapsed().as_secs_f64(),
        rate(n)
    );
    service.db.close().await?;
    Ok(())
}
