//! `TCP_NODELAY` on the TCP sockets of PostgreSQL connections. sqlx 0.9.0 no longer sets it
//! (sqlx issue 4335; the fix is merged upstream, not released): with Nagle's algorithm on, a
//! message larger than a TCP segment (a bulk insert's parameter, a long text) holds its last
//! segment back until the server acknowledges the ones before, which PostgreSQL's side delays
//! (up to 40 ms on Linux). A migration into PostgreSQL over TCP spent more than a third of its
//! time so: its server sat idle, waiting for the rest of the next statement.
//!
//! sqlx does not hand its socket out, so the socket is found among the process's open files
//! by its local port, which the server tells (`inet_client_port()`). Nothing is done on a Unix
//! socket, nor where the socket cannot be found (through a connection pooler the port the
//! server sees is the pooler's): it costs time, never correctness.

use sea_orm::sqlx::{self, PgConnection};

/// Turns Nagle's algorithm off on `c`'s TCP socket; a new connection's first statement.
pub(crate) async fn no_delay(c: &mut PgConnection) {
    let port = sqlx::query_scalar::<_, Option<i32>>("SELECT inet_client_port()")
        .fetch_one(&mut *c)
        .await;
    let port = match port {
        Ok(Some(p)) => p,
        Ok(None) => return, // a Unix socket
        Err(e) => {
            tracing::debug!(error = %e, "no client port: TCP_NODELAY not set");
            return;
        }
    };
    if !u16::try_from(port).is_ok_and(set_on_local_port) {
        tracing::debug!(
            port,
            "no TCP socket of this process on that port: TCP_NODELAY not set"
        );
    }
}

/// Sets `TCP_NODELAY` on the TCP sockets of this process bound to local `port` (one, unless
/// the process has sockets on several local addresses); whether there was one.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn set_on_local_port(port: u16) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc/self/fd") else {
        return false;
    };
    let mut found = false;
    for entry in entries.flatten() {
        let Some(fd) = (entry.file_name().to_str()).and_then(|n| n.parse::<libc::c_int>().ok())
        else {
            continue;
        };
        let socket = std::fs::read_link(entry.path())
            .is_ok_and(|l| l.as_os_str().as_encoded_bytes().starts_with(b"socket:"));
        if !socket {
            continue;
        }
        // SAFETY: `getsockname` and `setsockopt` only read the descriptor's socket and write
        // the buffers given with their lengths; nothing is read from or written to the
        // socket, and the descriptor is not kept. Should it be closed (and its number reused)
        // meanwhile, the calls fail or find another socket, which only a TCP socket bound to
        // `port` would match: at worst another connection's segments go out sooner.
        unsafe {
            let mut addr: libc::sockaddr_storage = std::mem::zeroed();
            let mut len = size_of::<libc::sockaddr_storage>() as libc::socklen_t;
            if libc::getsockname(fd, (&raw mut addr).cast(), &mut len) != 0 {
                continue;
            }
            let local = match libc::c_int::from(addr.ss_family) {
                libc::AF_INET => (*(&raw const addr).cast::<libc::sockaddr_in>()).sin_port,
                libc::AF_INET6 => (*(&raw const addr).cast::<libc::sockaddr_in6>()).sin6_port,
                _ => continue,
            };
            if u16::from_be(local) != port {
                continue;
            }
            let on: libc::c_int = 1;
            let set = libc::setsockopt(
                fd,
                libc::IPPROTO_TCP,
                libc::TCP_NODELAY,
                (&raw const on).cast(),
                size_of::<libc::c_int>() as libc::socklen_t,
            );
            // A UDP socket may have the same port number, and only a TCP one takes this.
            found |= set == 0;
        }
    }
    found
}

#[cfg(not(target_os = "linux"))]
fn set_on_local_port(_port: u16) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The socket of a TCP connection of this process is found by its local port and gets
    /// `TCP_NODELAY`.
    #[cfg(target_os = "linux")]
    #[test]
    fn finds_the_socket_by_its_local_port() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let client = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (_server, _) = listener.accept().unwrap();
        assert!(!client.nodelay().unwrap());
        assert!(set_on_local_port(client.local_addr().unwrap().port()));
        assert!(client.nodelay().unwrap());
    }
}
