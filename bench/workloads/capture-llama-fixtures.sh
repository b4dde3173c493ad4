#!/usr/bin/env bash
# Captures llama-server's raw streamed answers (the exact body bytes, curl -N) for the decoders' and the sim's tests
# (issue 29) into load-generator/src/test/resources/streams/llama/: NAME.sse is the body, NAME.headers the status
# line and headers, NAME.request.json the request body sent. The server is the peers' llama-server (20m random
# model, `-np 1 -c 4096`, prefix cache on) started FRESH by this script and stopped by its PID.
#
#   bench/workloads/capture-llama-fixtures.sh            # PORT (18497), PEERS_DIR, OUT (the fixtures dir)
#
# Waits for the binary (never builds it: `/work/shared/peers/llama-server.sh build`). 127.0.0.1 only.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
PORT=${PORT:-18497}
PEERS_DIR=${PEERS_DIR:-$HOME/.cache/capstream-peers}
PEERS_SH=${PEERS_SH:-/work/shared/peers/llama-server.sh}
OUT=${OUT:-$repo/load-generator/src/test/resources/streams/llama}
export PEERS_DIR
bin=$PEERS_DIR/llama.cpp/build/bin/llama-server
[[ -x $bin ]] || { echo "no llama-server at $bin (build it: $PEERS_SH build)" >&2; exit 1; }
mkdir -p "$OUT"
srv_pid=
cleanup() { [[ -n $srv_pid ]] && kill "$srv_pid" 2>/dev/null || true; }
trap cleanup EXIT
srv_pid=$("$PEERS_SH" start "$PORT" 20m -np 1 -c 4096)
base=http://127.0.0.1:$PORT

# post NAME PATH BODY [extra curl args]: the request body, headers and raw body bytes
post() {
  local name=$1 path=$2 body=$3; shift 3
  printf '%s\n' "$body" >"$OUT/$name.request.json"
  curl -sS -N -X POST "$base$path" -H 'Content-Type: application/json' "$@" \
    --data-binary @"$OUT/$name.request.json" -D "$OUT/$name.headers" -o "$OUT/$name.sse"
  sed -i 's/\r$//; /^[Dd]ate:/d' "$OUT/$name.headers"   # the date changes on every capture
  echo "$name: $(head -n1 "$OUT/$name.headers" | tr -d '\r'), $(wc -c <"$OUT/$name.sse") bytes"
}
nothink='"chat_template_kwargs":{"enable_thinking":false}'
tools_chat='[{"type":"function","function":{"name":"get_weather","description":"Current weather of a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}]'
tools_resp='[{"type":"function","name":"get_weather","description":"Current weather of a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]'
tools_msg='[{"name":"get_weather","description":"Current weather of a city","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]'

curl -sS "$base/props" >"$OUT/props.json"
curl -sS "$base/v1/models" >"$OUT/models.json"

# chat completions
post chat-text /v1/chat/completions '{"model":"random-llama-20m","messages":[{"role":"user","content":"Say hello."}],"max_tokens":16,"temperature":0.0,"stream":true,"stream_options":{"include_usage":true},'"$nothink"'}'
post chat-tools-required /v1/chat/completions '{"model":"random-llama-20m","messages":[{"role":"user","content":"What is the weather in Paris?"}],"tools":'"$tools_chat"',"tool_choice":"required","max_tokens":128,"temperature":0.0,"stream":true,"stream_options":{"include_usage":true},'"$nothink"'}'
post chat-tools-auto /v1/chat/completions '{"model":"random-llama-20m","messages":[{"role":"user","content":"What is the weather in Paris?"}],"tools":'"$tools_chat"',"tool_choice":"auto","max_tokens":32,"temperature":0.0,"stream":true,"stream_options":{"include_usage":true},'"$nothink"'}'
python3 - "$OUT" <<'PY' >"$OUT/.tool_turn.json"
import json, sys
out = sys.argv[1]
calls, text = {}, ""
for line in open(f"{out}/chat-tools-required.sse", encoding="utf-8"):
    if not line.startswith("data: ") or line.strip() == "data: [DONE]":
        continue
    for ch in json.loads(line[6:]).get("choices", []):
        for tc in ch.get("delta", {}).get("tool_calls") or []:
            c = calls.setdefault(tc.get("index", 0), {"id": "", "type": "function", "function": {"name": "", "arguments": ""}})
            c["id"] = tc.get("id") or c["id"]
            f = tc.get("function", {})
            c["function"]["name"] += f.get("name") or ""
            c["function"]["arguments"] += f.get("arguments") or ""
# llama-server answers tool_choice required with a 400 on this model (see the README): then a made-up call
call = calls[min(calls)] if calls else {"id": "call_h29fixture", "type": "function",
                                        "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
print(json.dumps({"model": "random-llama-20m", "messages": [
    {"role": "user", "content": "What is the weather in Paris?"},
    {"role": "assistant", "content": None, "tool_calls": [call]},
    {"role": "tool", "tool_call_id": call["id"], "content": "{\"temp_c\": 21, \"sky\": \"clear\"}"}],
    "tools": json.loads(open(f"{out}/chat-tools-auto.request.json").read())["tools"],
    "max_tokens": 16, "temperature": 0.0, "stream": True, "stream_options": {"include_usage": True},
    "chat_template_kwargs": {"enable_thinking": False}}))
PY
post chat-tool-result /v1/chat/completions "$(cat "$OUT/.tool_turn.json")"
rm -f "$OUT/.tool_turn.json"
post chat-thinking /v1/chat/completions '{"model":"random-llama-20m","messages":[{"role":"user","content":"Think, then say hello."}],"max_tokens":48,"temperature":0.0,"stream":true,"stream_options":{"include_usage":true}}'

# a 3-turn conversation on the prefix-cached server: each turn re-sends the history with the previous answer
hist='[{"role":"user","content":"Tell me about the history of the printing press in Europe, from Gutenberg onwards, in some detail."}]'
for t in 1 2 3; do
  post "chat-multiturn-turn$t" /v1/chat/completions '{"model":"random-llama-20m","messages":'"$hist"',"max_tokens":16,"temperature":0.0,"stream":true,"stream_options":{"include_usage":true},'"$nothink"'}'
  hist=$(python3 - "$OUT/chat-multiturn-turn$t.sse" "$hist" "$t" <<'PY'
import json, sys
text = ""
for line in open(sys.argv[1], encoding="utf-8"):
    if line.startswith("data: ") and line.strip() != "data: [DONE]":
        for ch in json.loads(line[6:]).get("choices", []):
            text += ch.get("delta", {}).get("content") or ""
h = json.loads(sys.argv[2])
h.append({"role": "assistant", "content": text})
h.append({"role": "user", "content": f"Go on with part {int(sys.argv[3]) + 1}, and mention the paper it used."})
print(json.dumps(h))
PY
)
done

# the OpenAI Responses API
post responses-text /v1/responses '{"model":"random-llama-20m","input":"Say hello.","max_output_tokens":16,"temperature":0.0,"stream":true,'"$nothink"'}'
post responses-input-items /v1/responses '{"model":"random-llama-20m","input":[{"role":"user","content":"Say hello."},{"type":"message","role":"assistant","content":"Hello there."},{"role":"user","content":"Again."}],"max_output_tokens":16,"temperature":0.0,"stream":true,'"$nothink"'}'
# an assistant item without "type":"message" (OpenAI accepts it as an easy input message; llama.cpp answers 400)
post responses-error-assistant-without-type /v1/responses '{"model":"random-llama-20m","input":[{"role":"user","content":"Say hello."},{"role":"assistant","content":"Hello there."},{"role":"user","content":"Again."}],"max_output_tokens":16,"temperature":0.0,"stream":true,'"$nothink"'}'
post responses-tools-required /v1/responses '{"model":"random-llama-20m","input":"What is the weather in Paris?","tools":'"$tools_resp"',"tool_choice":"required","max_output_tokens":128,"temperature":0.0,"stream":true,'"$nothink"'}'
post responses-thinking /v1/responses '{"model":"random-llama-20m","input":"Think, then say hello.","max_output_tokens":48,"temperature":0.0,"stream":true}'
post responses-error-previous-response-id /v1/responses '{"model":"random-llama-20m","input":"Again.","previous_response_id":"resp_123","max_output_tokens":16,"stream":true}'
post responses-error-no-input /v1/responses '{"model":"random-llama-20m","max_output_tokens":16,"stream":true}'

# Anthropic Messages
anth=(-H 'anthropic-version: 2023-06-01' -H 'x-api-key: not-a-key')
post messages-text /v1/messages '{"model":"random-llama-20m","max_tokens":16,"messages":[{"role":"user","content":"Say hello."}],"temperature":0.0,"stream":true,'"$nothink"'}' "${anth[@]}"
post messages-thinking-disabled /v1/messages '{"model":"random-llama-20m","max_tokens":16,"messages":[{"role":"user","content":[{"type":"text","text":"Say hello."}]}],"thinking":{"type":"disabled"},"temperature":0.0,"stream":true}' "${anth[@]}"
post messages-thinking /v1/messages '{"model":"random-llama-20m","max_tokens":48,"messages":[{"role":"user","content":"Think, then say hello."}],"temperature":0.0,"stream":true}' "${anth[@]}"
post messages-tools-any /v1/messages '{"model":"random-llama-20m","max_tokens":128,"messages":[{"role":"user","content":"What is the weather in Paris?"}],"tools":'"$tools_msg"',"tool_choice":{"type":"any"},"temperature":0.0,"stream":true,'"$nothink"'}' "${anth[@]}"
long=$(python3 -c 'print("word " * 4500)')
post messages-error-context-exceeded /v1/messages '{"model":"random-llama-20m","max_tokens":16,"messages":[{"role":"user","content":"'"$long"'"}],"stream":true}' "${anth[@]}"
post messages-error-no-messages /v1/messages '{"model":"random-llama-20m","max_tokens":16,"stream":true}' "${anth[@]}"
post responses-error-context-exceeded /v1/responses '{"model":"random-llama-20m","max_output_tokens":16,"input":"'"$long"'","stream":true}'
post chat-error-context-exceeded /v1/chat/completions '{"model":"random-llama-20m","messages":[{"role":"user","content":"'"$long"'"}],"max_tokens":16,"stream":true,"stream_options":{"include_usage":true}}'
curl -sS "$base/slots" >"$OUT/slots-after.json"
kill "$srv_pid"; srv_pid=
echo "server log: $PEERS_DIR/server-$PORT.log"
