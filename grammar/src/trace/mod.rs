//! placeholder: replaced by the trace parser
