//! Runtime errors: what a faulty ruleset raises while a game runs.

use super::*;

/// The error a read that the verifier (`verify.rs`) rules out gives, should an IR that was
/// not verified (a release build does not verify) break the invariant: never a panic.
#[cold]
pub(crate) fn unverified(what: &str) -> RuntimeError {
    RuntimeError::new(format!(
        "the IR breaks an invariant the verifier checks: {what}"
    ))
}

/// A ruleset error found while a game runs (an index out of range, an overflow, a script
/// that failed…). A correct ruleset never raises one; the message says which statement
/// did, with its file, line and column.
#[derive(Clone, PartialEq, Eq)]
pub struct RuntimeError(Box<ErrorInner>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct ErrorInner {
    message: String,
    /// Where the statement being executed stands (`ruleset.yaml:12:9: play[0].set.v`).
    origin: Option<Arc<str>>,
}

impl From<crate::work::WorkSpent> for RuntimeError {
    #[cold]
    fn from(spent: crate::work::WorkSpent) -> RuntimeError {
        RuntimeError::new(spent.to_string())
    }
}

impl RuntimeError {
    pub fn new(message: impl Into<String>) -> RuntimeError {
        RuntimeError(Box::new(ErrorInner {
            message: message.into(),
            origin: None,
        }))
    }
    pub fn at(mut self, origin: &Arc<str>) -> RuntimeError {
        if self.0.origin.is_none() {
            self.0.origin = Some(origin.clone());
        }
        self
    }
    pub fn message(&self) -> &str {
        &self.0.message
    }
    pub fn origin(&self) -> Option<&str> {
        self.0.origin.as_deref()
    }
}

impl fmt::Debug for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0.origin {
            Some(origin) => write!(f, "{origin}: {}", self.0.message),
            None => f.write_str(&self.0.message),
        }
    }
}

impl std::error::Error for RuntimeError {}

pub type Result<T> = std::result::Result<T, RuntimeError>;
