//! The `cairn` command: `cairn serve`, `cairn openapi`.

use cairn::config::{Cli, Command};
use clap::Parser;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Openapi(api) => {
            let prefix = api.full_prefix();
            print!("{}", cairn::app::openapi_document(&api.vendor, &prefix));
            Ok(())
        }
        Command::Serve(args) => {
            let filter = EnvFilter::try_new(&args.log)
                .map_err(|e| anyhow::anyhow!("bad --log filter '{}': {e}", args.log))?;
            if args.log_json {
                tracing_subscriber::fmt()
                    .json()
                    .with_env_filter(filter)
                    .init();
            } else {
                tracing_subscriber::fmt().with_env_filter(filter).init();
            }
            let (service, settings) = cairn::setup(&args).await?;
            let prefix = settings.wire.prefix.clone();
            let app = cairn::app::app(service, settings);
            tracing::info!(listen = %args.listen, %prefix, database = %args.database_url, "cairn is serving");
            poem::Server::new(poem::listener::TcpListener::bind(args.listen))
                .run_with_graceful_shutdown(
                    app,
                    async {
                        let _ = tokio::signal::ctrl_c().await;
                    },
                    Some(std::time::Duration::from_secs(10)),
                )
                .await?;
            Ok(())
        }
    }
}
