//! A varnishd of the bench's own in front of a cairn server, with the project's VCL
//! (`docs/varnish/cairn.vcl`) or another (`--vcl`, e.g. the reference's `varnish7.vcl`, whose
//! `include "/etc/varnish/parameters.vcl"` then points at a parameters file written here).

use crate::server::Server;
use anyhow::{Context, Result, bail};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The project's VCL.
pub fn default_vcl() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/varnish/cairn.vcl")
}

/// Starts varnishd on `addr` in front of `backend`, working in `dir`, with the VCL `vcl`;
/// ready once a GET of `ready_path` through it answers.
pub async fn start(
    dir: &Path,
    addr: SocketAddr,
    backend: SocketAddr,
    vcl: &Path,
    ready_path: &str,
) -> Result<Server> {
    let text = std::fs::read_to_string(vcl).with_context(|| format!("{}", vcl.display()))?;
    let target = format!(
        "{{ .host = \"{}\"; .port = \"{}\"; }}",
        backend.ip(),
        backend.port()
    );
    let include = "include \"/etc/varnish/parameters.vcl\";";
    let text = if text.contains(include) {
        let parameters = dir.join("parameters.vcl");
        std::fs::write(
            &parameters,
            format!(
                "backend ezplatform {target}\nacl invalidators {{ \"127.0.0.1\"; }}\n\
                 acl debuggers {{ \"127.0.0.1\"; }}\n"
            ),
        )?;
        text.replace(include, &format!("include \"{}\";", parameters.display()))
    } else if text.lines().any(|l| l.starts_with("backend cairn ")) {
        (text.lines())
            .map(|l| match l.starts_with("backend cairn ") {
                true => format!("backend cairn {target}"),
                false => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    } else {
        bail!(
            "{}: neither a line `backend cairn {{ ... }}` nor the reference's {include}",
            vcl.display()
        );
    };
    let written = dir.join("bench.vcl");
    std::fs::write(&written, text)?;
    let varnishd = ["/usr/sbin/varnishd", "varnishd"]
        .into_iter()
        .find(|p| Command::new(p).arg("-V").output().is_ok())
        .context("no varnishd (Debian: varnish and varnish-modules; .ci/varnish installs them)")?;
    let mut command = Command::new(varnishd);
    command
        .arg("-F")
        .arg("-n")
        .arg(dir.join("varnish"))
        .arg("-a")
        .arg(addr.to_string())
        .arg("-T")
        .arg("127.0.0.1:0")
        .arg("-f")
        .arg(&written)
        .arg("-s")
        .arg("malloc,256m")
        .stderr(std::process::Stdio::null());
    Server::spawn("varnishd", command, addr, ready_path).await
}
