// Package rpcwire is the engine under jsonrpc that its neighbours share: the
// message vocabulary (ID, Message, the error object and its Code), the
// one-pass decoder and the appenders that write frames without
// reflection, the member walk and response-id peek that read a few
// members of a large frame without decoding it, and the optional stream
// capabilities a Conn looks for (Caller, ReadNotifier).
//
// It is internal so that these fast paths are no promise to hosts:
// jsonrpc re-exports the vocabulary a host uses (ID, Error, Code) and
// keeps the rest out of its API; transport, streamhttp, mcpclient and the
// test servers use the rest from here.
package rpcwire
