//! The ceiling: a trivial poem server, run as a child process of this same binary
//! (`cairn-bench ceiling ...`), whose one handler reads the request body and answers fixed
//! bytes with a fixed status and Content-Type. Each scenario is compared with it answering
//! exactly the scenario's response body.

use crate::client::Response;
use crate::server::{Server, free_addr};
use anyhow::{Context, Result};
use bytes::Bytes;
use clap::Args;
use poem::http::StatusCode;
use poem::listener::TcpListener;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Options of the hidden `ceiling` subcommand.
#[derive(Debug, Args)]
pub struct CeilingArgs {
    #[arg(long)]
    pub listen: SocketAddr,
    /// File holding the response body.
    #[arg(long)]
    pub body_file: PathBuf,
    #[arg(long, default_value = "application/octet-stream")]
    pub content_type: String,
    #[arg(long, default_value_t = 200)]
    pub status: u16,
}

/// Runs the ceiling server until killed.
pub async fn serve(args: CeilingArgs) -> Result<()> {
    let body = Bytes::from(
        std::fs::read(&args.body_file)
            .with_context(|| format!("cannot read {}", args.body_file.display()))?,
    );
    let status = StatusCode::from_u16(args.status).context("bad --status")?;
    let content_type = args.content_type;
    let app = poem::endpoint::make(move |mut req: poem::Request| {
        let body = body.clone();
        let content_type = content_type.clone();
        async move {
            let _ = req.take_body().into_bytes().await;
            poem::Response::builder()
                .status(status)
                .content_type(content_type)
                .body(body)
        }
    });
    poem::Server::new(TcpListener::bind(args.listen))
        .run(app)
        .await?;
    Ok(())
}

/// Starts a ceiling server answering `reply`'s status, Content-Type and body; `dir` holds the
/// body file.
pub async fn start(reply: &Response, dir: &Path) -> Result<Server> {
    let addr = free_addr()?;
    let body_file = dir.join("ceiling-body");
    std::fs::write(&body_file, &reply.body)
        .with_context(|| format!("cannot write {}", body_file.display()))?;
    let exe = std::env::current_exe().context("cannot locate the bench executable")?;
    let mut command = Command::new(exe);
    command
        .arg("ceiling")
        .arg("--listen")
        .arg(addr.to_string())
        .arg("--body-file")
        .arg(&body_file)
        .arg("--status")
        .arg(reply.status.to_string());
    if let Some(content_type) = reply.header("content-type") {
        command.arg("--content-type").arg(content_type);
    }
    Server::spawn("the ceiling server", command, addr, "/").await
}
