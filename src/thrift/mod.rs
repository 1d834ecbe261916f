//! (module thrift: to be filled in)
