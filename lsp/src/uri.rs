//! `file:` URIs, as editors name documents, and paths on disk.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::Uri;

/// The path a `file:` URI names (percent-escapes decoded); none for another scheme.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let text = uri.as_str();
    let rest = text.strip_prefix("file://")?;
    // `file:///path` (no host) or `file://localhost/path`.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let rest = rest.split(['?', '#']).next().unwrap_or_default();
    let mut bytes = Vec::with_capacity(rest.len());
    let mut i = 0;
    let raw = rest.as_bytes();
    while i < raw.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if raw[i] == b'%' && i + 2 < raw.len() {
            if let (Some(high), Some(low)) = (hex(raw[i + 1]), hex(raw[i + 2])) {
                bytes.push((high * 16 + low) as u8);
                i += 3;
                continue;
            }
        }
        bytes.push(raw[i]);
        i += 1;
    }
    let path = String::from_utf8(bytes).ok()?;
    // `file:///C:/x` on Windows names `C:/x`.
    let path = match path.as_bytes() {
        [b'/', drive, b':', ..] if drive.is_ascii_alphabetic() && cfg!(windows) => &path[1..],
        _ => &path,
    };
    Some(crate::workspace::normal(Path::new(path)))
}

/// The `file:` URI of an absolute path, escaping what a URI may not hold.
pub fn uri_of(path: &Path) -> Option<Uri> {
    let text = path.to_str()?.replace('\\', "/");
    let mut out = String::from("file://");
    if !text.starts_with('/') {
        out.push('/');
    }
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' | b':' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    Uri::from_str(&out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_uris_round_trip() {
        for path in [
            "/tmp/go west/ruleset.yaml",
            "/r/é#1/a%b.trace",
            "/plain/x.yaml",
        ] {
            let uri = uri_of(Path::new(path)).unwrap();
            assert!(!uri.as_str()[7..].contains(' '), "{}", uri.as_str());
            assert_eq!(path_of(&uri).unwrap(), PathBuf::from(path));
        }
        let uri = Uri::from_str("file:///tmp/go%20west/ruleset.yaml").unwrap();
        assert_eq!(
            path_of(&uri).unwrap(),
            PathBuf::from("/tmp/go west/ruleset.yaml")
        );
        assert_eq!(
            path_of(&Uri::from_str("untitled:Untitled-1").unwrap()),
            None
        );
    }
}
