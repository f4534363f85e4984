//! A TCP proxy in front of the test's PostgreSQL server that can be stopped (its connections
//! cut, nothing listening on its port: the server is down) and started again on the same
//! port, as a database server restarted under a running cairn.

use std::net::SocketAddr;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// The proxy: forwarding while started.
pub struct Proxy {
    /// Where it listens.
    pub addr: SocketAddr,
    target: String,
    running: Option<JoinHandle<()>>,
}

impl Proxy {
    /// A proxy to `target` (`host:port`) on a free port of the loopback, started.
    pub async fn start(target: &str) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let addr = listener.local_addr().expect("its address");
        let mut proxy = Proxy {
            addr,
            target: target.to_string(),
            running: None,
        };
        proxy.running = Some(tokio::spawn(forward(listener, proxy.target.clone())));
        proxy
    }

    /// Stops listening and cuts every connection it forwards.
    pub fn stop(&mut self) {
        if let Some(task) = self.running.take() {
            task.abort();
        }
    }

    /// Listens again, on the same port.
    pub async fn resume(&mut self) {
        let listener = TcpListener::bind(self.addr)
            .await
            .expect("the same port again");
        self.running = Some(tokio::spawn(forward(listener, self.target.clone())));
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Accepts connections and forwards each to `target`; aborting it cuts them all.
async fn forward(listener: TcpListener, target: String) {
    let mut connections = tokio::task::JoinSet::new();
    while let Ok((mut client, _)) = listener.accept().await {
        let target = target.clone();
        connections.spawn(async move {
            if let Ok(mut server) = TcpStream::connect(&target).await {
                let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
            }
        });
    }
}
