//! What protects the server and its players from the network: the `Host` a request names
//! (DNS rebinding), the headers every answer carries (CSP, nosniff, no framing, no
//! referrer), a time bound on each request and on idle connections (half-open ones are
//! closed), and the secrets: random game ids and seat tokens, compared in constant time.

use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, Sleep};

/// The most a request may take to be answered (a page, a view, a replay); the event
/// stream's answer is its start, not the stream.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// A connection on which nothing is read or written for this long is closed (an event
/// stream writes a keep-alive comment every 15 s).
pub const IDLE_CONNECTION: Duration = Duration::from_secs(60);

/// The largest request body taken (a trace to replay is the largest): a larger one gets 413.
pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// The names a request's `Host` may give: the address the server listens on, `localhost`
/// and loopback addresses, and the names given with `--host`, each with the port listened
/// on. A page of another site whose name was made to resolve to this machine (DNS
/// rebinding) names its own site, and is refused.
#[derive(Clone, Debug)]
pub struct Hosts {
    bound: SocketAddr,
    names: Vec<String>,
}

impl Hosts {
    pub fn new(bound: SocketAddr, names: Vec<String>) -> Hosts {
        Hosts {
            bound,
            names: names.into_iter().map(|n| n.to_ascii_lowercase()).collect(),
        }
    }

    /// Whether a `Host` header value names this server.
    pub fn allows(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        // `name`, `name:port`, `[v6]`, `[v6]:port`; without a port, HTTP's 80.
        let (name, port) = match host.rsplit_once(':') {
            Some((name, port))
                if !port.contains(']') && (!name.contains(':') || name.ends_with(']')) =>
            {
                match port.parse::<u16>() {
                    Ok(p) => (name.to_string(), p),
                    Err(_) => return false,
                }
            }
            _ => (host.clone(), 80),
        };
        if port != self.bound.port() {
            return false;
        }
        let bare = name.trim_start_matches('[').trim_end_matches(']');
        if let Ok(ip) = bare.parse::<IpAddr>() {
            return ip.is_loopback() || ip == self.bound.ip() || self.bound.ip().is_unspecified();
        }
        name == "localhost" || self.names.contains(&name)
    }
}

/// Refuses a request whose `Host` does not name this server (421, misdirected).
pub async fn check_host(State(hosts): State<Hosts>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_string)
        .or_else(|| request.uri().authority().map(|a| a.to_string()));
    match host {
        Some(h) if hosts.allows(&h) => next.run(request).await,
        Some(h) => refusal(
            StatusCode::MISDIRECTED_REQUEST,
            format!("this server does not answer for the host '{h}' (it answers for 127.0.0.1, localhost and the --host names, on its port)"),
        ),
        None => refusal(StatusCode::BAD_REQUEST, "the request names no Host".into()),
    }
}

fn refusal(status: StatusCode, message: String) -> Response {
    (status, axum::Json(serde_json::json!({ "error": message }))).into_response()
}

/// The page's scripts and styles come from the server only (styles may be inline: the
/// drawn board colours its pieces with `style` attributes); no page may frame it.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Adds the security headers to every answer and answers 408 to a request not answered
/// within [`REQUEST_TIMEOUT`].
pub async fn headers_and_timeout(request: Request, next: Next) -> Response {
    let mut response = match tokio::time::timeout(REQUEST_TIMEOUT, next.run(request)).await {
        Ok(response) => response,
        Err(_) => refusal(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request was not answered within {} s",
                REQUEST_TIMEOUT.as_secs()
            ),
        ),
    };
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// `bytes` random bytes from the operating system, in hex: game ids and seat tokens
/// (never part of a game's determinism).
pub fn random_hex(bytes: usize) -> Result<String, String> {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer)
        .map_err(|e| format!("the operating system gave no random bytes: {e}"))?;
    Ok(buffer.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether two tokens are equal, in a time that does not depend on where they differ.
pub fn same_token(given: &str, expected: &str) -> bool {
    let (a, b) = (given.as_bytes(), expected.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A listener whose connections close after a time without a byte read or written (a
/// client that connects and sends nothing, or stops half-way).
pub struct IdleClosing {
    listener: TcpListener,
    idle: Duration,
}

impl IdleClosing {
    /// Connections of `listener` closed after [`IDLE_CONNECTION`] idle.
    pub fn new(listener: TcpListener) -> IdleClosing {
        IdleClosing::after(listener, IDLE_CONNECTION)
    }

    pub fn after(listener: TcpListener, idle: Duration) -> IdleClosing {
        IdleClosing { listener, idle }
    }
}

impl axum::serve::Listener for IdleClosing {
    type Io = IdleStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (IdleStream, SocketAddr) {
        loop {
            match self.listener.accept().await {
                Ok((stream, address)) => {
                    let _ = stream.set_nodelay(true);
                    return (IdleStream::new(stream, self.idle), address);
                }
                // Out of descriptors and the like: wait a little rather than spin.
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

/// A connection that fails with `TimedOut` once idle for its time in both directions.
pub struct IdleStream {
    inner: TcpStream,
    idle: Duration,
    deadline: Pin<Box<Sleep>>,
}

impl IdleStream {
    fn new(inner: TcpStream, idle: Duration) -> IdleStream {
        IdleStream {
            inner,
            idle,
            deadline: Box::pin(tokio::time::sleep(idle)),
        }
    }

    /// Something moved: the idle time starts again.
    fn active(&mut self) {
        let next = Instant::now() + self.idle;
        self.deadline.as_mut().reset(next);
    }

    /// Pending with nothing moving: an error once the idle time is over.
    fn pending_or_timed_out<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the connection was idle too long",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for IdleStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(result) => {
                self.active();
                Poll::Ready(result)
            }
            Poll::Pending => self.pending_or_timed_out(cx),
        }
    }
}

impl AsyncWrite for IdleStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match Pin::new(&mut self.inner).poll_write(cx, buf) {
            Poll::Ready(result) => {
                self.active();
                Poll::Ready(result)
            }
            Poll::Pending => self.pending_or_timed_out(cx),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_name_the_server_or_are_refused() {
        let loopback = Hosts::new(
            "127.0.0.1:8080".parse().unwrap(),
            vec!["Games.Local".into()],
        );
        let cases = [
            ("127.0.0.1:8080", true),
            ("localhost:8080", true),
            ("LOCALHOST:8080", true),
            ("[::1]:8080", true),
            ("games.local:8080", true),
            ("127.0.0.1:8081", false),
            ("127.0.0.1", false),
            ("attacker.example", false),
            ("attacker.example:8080", false),
            ("localhost.attacker.example:8080", false),
            ("192.168.1.9:8080", false),
            ("127.0.0.1:80x", false),
            ("", false),
        ];
        for (host, allowed) in cases {
            assert_eq!(loopback.allows(host), allowed, "{host}");
        }
        // Listening on every address: any address of the machine, no other name.
        let every = Hosts::new("0.0.0.0:80".parse().unwrap(), Vec::new());
        assert!(every.allows("192.168.1.9"));
        assert!(every.allows("[fe80::1]:80"));
        assert!(!every.allows("attacker.example"));
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(same_token("abcd", "abcd"));
        assert!(!same_token("abce", "abcd"));
        assert!(!same_token("abc", "abcd"));
        assert!(!same_token("", "abcd"));
        let (a, b) = (random_hex(16).unwrap(), random_hex(16).unwrap());
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b, "two draws of 128 bits differ");
    }
}
