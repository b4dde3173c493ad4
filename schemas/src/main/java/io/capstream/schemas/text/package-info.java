/**
 * Checks and redaction shared by every module, applied where user input or a server's text enters
 * capstream: {@link io.capstream.schemas.text.HttpUrls} (URL options, checked before anything is
 * sent), {@link io.capstream.schemas.text.Redaction} (credentials in URLs and secret values in
 * messages, masked before they reach events, reports or the console) and
 * {@link io.capstream.schemas.text.RunIdRule} (what a run id may contain).
 */
package io.capstream.schemas.text;
