/**
 * The chat page's only script, inline (allowed by its hash, like the report's). It talks to its
 * own server over one JSON API, each request carrying the page's token in a header (so no other
 * origin's page can send one without a preflight, which the server refuses). What the server
 * draws is markup made by the report's renderers, every value from the agent escaped; the script
 * only puts it in place: a turn is appended where its message was sent, never redrawing the rest
 * (each append is timed with the User Timing API, `check-endpoint chat: turn N drawn`, which the
 * benchmark reads). The person's own photo is drawn from bytes the page holds: their file, or the
 * sample photo fetched once from its own server, as a blob: URL (the policy allows blob: images on
 * this page alone). The conversations live in this page alone: another tab starts its own.
 */
export const CHAT_SCRIPT = `(function () {
  'use strict';
  var main = document.getElementById('chat-main');
  var TOKEN = main.getAttribute('data-token');
  var HAS_AGENT = main.getAttribute('data-agent') === 'yes';
  var conversations = document.getElementById('conversations');
  var status = document.getElementById('status');
  var form = document.getElementById('composer');
  var textBox = document.getElementById('composer-text');
  var attach = document.getElementById('attach');
  var ownFile = document.getElementById('own-file');
  var ownLabel = document.getElementById('own-file-label');
  var channel = document.getElementById('channel');
  var quoting = document.getElementById('quoting');
  var quotingText = document.getElementById('quoting-text');
  var active = null;
  var quote = null;
  // The person's own pictures, by conversation and turn: a promise of { url, alt } (a blob: URL made here).
  var pictures = {};
  var samplePictures = {};

  function say(text) { status.textContent = text; }

  function api(method, path, body) {
    var init = { method: method, headers: { 'x-chat-token': TOKEN }, cache: 'no-store', credentials: 'same-origin' };
    if (body !== undefined) { init.headers['content-type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch(path, init).then(function (response) {
      return response.json().then(function (json) {
        if (!response.ok) throw new Error(json && json.error ? json.error : 'the server answered ' + response.status);
        return json;
      });
    });
  }

  function fragment(html) {
    var template = document.createElement('template');
    template.innerHTML = html;
    return template.content;
  }

  // Each conversation on the page, by key: its section, and the list its next turn goes into. A long conversation is
  // drawn as lists of TURNS_PER_LIST turns, one after another in its phone, each list rendered only while on screen
  // (content-visibility: auto, chat-styles.ts): a turn appended makes the browser style, lay out, paint and hit-test the
  // lists in view, not the whole conversation, so turn 200 is drawn as fast as turn 1.
  var TURNS_PER_LIST = 20;
  var phones = {};
  function phoneOf(key) { return phones[key] ? phones[key].section : null; }

  /** Puts a turn's place, or a notice (turn false), at the end of the conversation: in a new list when the last is full. */
  function append(key, li, turn) {
    var at = phones[key];
    if (!at) return false;
    if (turn && at.turns === TURNS_PER_LIST) {
      var list = document.createElement('ol');
      list.className = 'chat chat-more';
      list.setAttribute('aria-label', at.label + ', from message ' + (at.sent + 1));
      at.list.after(list);
      at.list = list;
      at.turns = 0;
    }
    if (turn && at.sent === 0) {
      var empty = at.list.querySelector('.empty-note');
      if (empty) empty.remove();
    }
    at.list.appendChild(li);
    if (turn) { at.turns++; at.sent++; }
    return true;
  }

  function notice(text, bad) {
    var li = document.createElement('li');
    li.className = 'row system' + (bad ? ' refused' : '');
    var lane = document.createElement('div');
    lane.className = 'lane';
    var p = document.createElement('p');
    p.className = 'chip-line';
    var chip = document.createElement('span');
    chip.className = 'turn-chip' + (bad ? ' bad' : '');
    chip.textContent = text;
    p.appendChild(chip);
    lane.appendChild(p);
    li.appendChild(lane);
    var notes = document.createElement('div');
    notes.className = 'notes';
    li.appendChild(notes);
    return li;
  }

  function addPhone(result, replace) {
    if (replace) { conversations.textContent = ''; phones = {}; }
    var drawn = fragment(result.html);
    var section = drawn.querySelector('section.conversation');
    var list = section.querySelector('ol.chat');
    phones[result.key] = { section: section, list: list, label: list.getAttribute('aria-label'), turns: 0, sent: 0 };
    conversations.appendChild(drawn);
    active = result.key;
    channel.value = result.channel;
  }

  function drawPicture(row, picture) {
    picture.then(function (drawn) {
      var bubble = row.querySelector('.bubble.from-person');
      if (!bubble || bubble.querySelector('img.own-picture')) return;
      var img = document.createElement('img');
      img.className = 'picture own-picture';
      img.alt = drawn.alt;
      img.src = drawn.url;
      var file = bubble.querySelector('p.file');
      bubble.insertBefore(img, file || bubble.firstChild);
    }).catch(function () { /* the file stays named with its size */ });
  }

  function placeTurn(key, place, view, sentAt) {
    var phone = phoneOf(key);
    var started = performance.now();
    var drawn = fragment(view.html);
    var row = drawn.querySelector('li.row.person');
    var last = drawn.lastElementChild;
    var picture = pictures[key] && pictures[key][view.index];
    if (row && picture) drawPicture(row, picture);
    place.replaceWith(drawn);
    (view.reactions || []).forEach(function (reaction) {
      var row = phone.querySelector('li.row.person[data-message-id="' + CSS.escape(reaction.messageId) + '"] .bubble');
      if (!row) return;
      var old = row.querySelector('.reactions');
      if (old) old.remove();
      row.appendChild(fragment(reaction.html));
    });
    // A turn the person just sent is brought into view (the browser lays the page out for it).
    if (sentAt !== undefined && last) last.scrollIntoView({ block: 'nearest' });
    performance.measure('check-endpoint chat: turn ' + (view.index + 1) + ' drawn', { start: started });
    if (sentAt !== undefined) performance.measure('check-endpoint chat: turn ' + (view.index + 1) + ' sent, answered and drawn', { start: sentAt });
    var f = view.figures;
    var errors = f.findings.filter(function (x) { return x.severity === 'error'; }).length;
    var warnings = f.findings.length - errors;
    say('Turn ' + (view.index + 1) + ': ' + (f.status === null ? 'no answer' : 'HTTP ' + f.status) + ', ' + f.latencyMs + ' ms, ' +
      (f.replies === null ? 'no usable reply' : f.replies + (f.replies === 1 ? ' reply' : ' replies')) +
      (errors ? ', ' + errors + (errors === 1 ? ' error' : ' errors') : '') + (warnings ? ', ' + warnings + (warnings === 1 ? ' warning' : ' warnings') : '') + '.');
  }

  function send(key, message, label, picture) {
    var sentAt = performance.now();
    var place = notice('Sending: ' + label + '…', false);
    place.classList.add('pending');
    if (!append(key, place, true)) return;
    place.scrollIntoView({ block: 'nearest' });
    say('Sending: ' + label);
    api('POST', 'api/conversations/' + key + '/messages', message).then(function (result) {
      if (result.refused) { place.replaceWith(notice('Not sent: ' + result.refused, true)); say('Not sent: ' + result.refused); return; }
      if (picture) (pictures[key] = pictures[key] || {})[result.index] = picture;
      placeTurn(key, place, result, sentAt);
    }).catch(function (error) {
      place.replaceWith(notice('Not sent: ' + error.message, true));
      say('Not sent: ' + error.message);
    });
  }

  function readOwnFile() {
    var file = ownFile.files && ownFile.files[0];
    if (!file) return Promise.reject(new Error('choose a file first'));
    return new Promise(function (resolve, reject) {
      var reader = new FileReader();
      reader.onload = function () {
        var url = String(reader.result);
        resolve({ name: file.name, mime: file.type || 'application/octet-stream', data: url.slice(url.indexOf(',') + 1), blob: file });
      };
      reader.onerror = function () { reject(new Error('the file could not be read')); };
      reader.readAsDataURL(file);
    });
  }

  function setQuote(next) {
    quote = next;
    quoting.hidden = !next;
    quotingText.textContent = next ? 'Quoting ' + next.label : '';
  }

  function sample(name) {
    if (!samplePictures[name]) {
      samplePictures[name] = fetch('api/samples/' + name, { headers: { 'x-chat-token': TOKEN }, cache: 'no-store', credentials: 'same-origin' })
        .then(function (response) {
          if (!response.ok) throw new Error('the server answered ' + response.status);
          return response.blob();
        }).then(function (blob) { return URL.createObjectURL(blob); });
    }
    return samplePictures[name];
  }

  /** The picture of a file the person sends, when it is a photo: a promise of its blob: URL and alt text; null otherwise. */
  function pictureOf(file) {
    if (!file) return null;
    if (file.sample) {
      var option = attach.querySelector('option[value="' + file.sample + '"]');
      if (!option || option.getAttribute('data-kind') !== 'image') return null;
      return sample(file.sample).then(function (url) { return { url: url, alt: 'Your photo (the check’s sample photo)' }; });
    }
    if (!/^image[/]/.test(file.mime)) return null;
    return Promise.resolve({ url: URL.createObjectURL(file.blob), alt: 'Your photo (' + file.name + ')' });
  }

  function submit() {
    var text = textBox.value;
    var choice = attach.value;
    if (text.trim() === '' && choice === '') { say('Type a message or attach a file first.'); return; }
    var key = quote ? quote.key : active;
    var message = { text: text };
    if (quote) message.quote = quote.quote;
    var label = text.trim() !== '' ? '“' + text.slice(0, 60) + '”' : 'a file';
    var ready = choice === '' ? Promise.resolve(null) : choice === 'own' ? readOwnFile().then(function (own) { return own; }) : Promise.resolve({ sample: choice });
    ready.then(function (file) {
      var picture = pictureOf(file);
      if (file) message.file = file.sample ? { sample: file.sample } : { name: file.name, mime: file.mime, data: file.data };
      textBox.value = '';
      attach.value = '';
      showOwn();
      setQuote(null);
      send(key, message, label, picture);
    }).catch(function (error) { say('Not sent: ' + error.message); });
  }

  function showOwn() {
    var own = attach.value === 'own';
    ownFile.hidden = !own;
    ownLabel.hidden = !own;
  }

  form.addEventListener('submit', function (event) { event.preventDefault(); submit(); });
  textBox.addEventListener('keydown', function (event) {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) { event.preventDefault(); submit(); }
  });
  attach.addEventListener('change', showOwn);
  document.getElementById('quote-cancel').addEventListener('click', function () { setQuote(null); textBox.focus(); });

  conversations.addEventListener('click', function (event) {
    var target = event.target instanceof Element ? event.target : null;
    var phone = target ? target.closest('section[data-conversation]') : null;
    if (!phone) return;
    var key = phone.getAttribute('data-conversation');
    var tap = target.closest('button.tap');
    if (tap) {
      send(key, { text: '', tap: { turn: Number(tap.getAttribute('data-turn')), reply: Number(tap.getAttribute('data-reply')), id: tap.getAttribute('data-choice') } },
        'a tap of “' + tap.textContent.trim().slice(0, 60) + '”');
      return;
    }
    var opener = target.closest('button.turn-open');
    if (opener) {
      var open = opener.getAttribute('aria-expanded') !== 'true';
      var pane = document.getElementById(opener.getAttribute('aria-controls'));
      opener.setAttribute('aria-expanded', open ? 'true' : 'false');
      if (pane) pane.hidden = !open;
      return;
    }
    var quoteButton = target.closest('button.quote-this');
    if (quoteButton) {
      var from = quoteButton.getAttribute('data-quote-from');
      var q = { from: from, turn: Number(quoteButton.getAttribute('data-turn')) };
      if (quoteButton.hasAttribute('data-reply')) q.reply = Number(quoteButton.getAttribute('data-reply'));
      setQuote({ key: key, quote: q, label: from === 'person' ? 'your message ' + (q.turn + 1) : 'the agent’s reply to message ' + (q.turn + 1) });
      textBox.focus();
    }
  });

  function newConversation(replace) {
    return api('POST', 'api/conversations', { channel: channel.value }).then(function (result) {
      addPhone(result, replace);
      say('A new conversation on ' + result.title + '.');
    }).catch(function (error) { say('Could not start a conversation: ' + error.message); });
  }

  document.getElementById('new-conversation').addEventListener('click', function () { setQuote(null); newConversation(true); textBox.focus(); });

  // A platform chosen with the mouse is played at once. By keyboard, each arrow changes the choice (and fires
  // change): the arrows only choose, and Enter, or leaving the box, plays the conversation on the one chosen.
  var keying = false;
  var chosen = false;
  channel.addEventListener('keydown', function (event) {
    if (event.key === 'Enter') {
      if (chosen) { event.preventDefault(); switchPlatform(); }
      return;
    }
    keying = true;
  });
  channel.addEventListener('keyup', function () { keying = false; });
  channel.addEventListener('blur', function () { keying = false; if (chosen) switchPlatform(); });
  channel.addEventListener('change', function () {
    if (keying) {
      chosen = true;
      say(channel.options[channel.selectedIndex].text + ' chosen: Enter plays the conversation on it.');
      return;
    }
    switchPlatform();
  });

  function switchPlatform() {
    chosen = false;
    setQuote(null);
    if (!active || !phones[active] || phones[active].sent === 0) { newConversation(true); return; }
    say('Playing the conversation again on ' + channel.options[channel.selectedIndex].text + '…');
    var from = active;
    api('POST', 'api/conversations/' + from + '/replay', { channel: channel.value }).then(function (result) {
      addPhone(result, false);
      result.turns.forEach(function (view) {
        var place = notice('', false);
        append(result.key, place, true);
        // The same message played again: the person's photo is drawn again too.
        if (pictures[from] && pictures[from][view.index]) (pictures[result.key] = pictures[result.key] || {})[view.index] = pictures[from][view.index];
        placeTurn(result.key, place, view);
      });
      if (result.stopped) append(result.key, notice(result.stopped, true), false);
      say('Played again on ' + result.title + ' as a new conversation: ' + result.turns.length + ' turns' + (result.stopped ? '; ' + result.stopped : '') + '.');
      phoneOf(result.key).scrollIntoView({ block: 'start' });
    }).catch(function (error) { say('Could not play it again: ' + error.message); });
  }

  var scenarioPanel = document.getElementById('scenario-panel');
  var scenarioOut = document.getElementById('scenario-out');
  var scenarioResult = document.getElementById('scenario-result');
  document.getElementById('save-scenario').addEventListener('click', function () {
    scenarioPanel.hidden = !scenarioPanel.hidden;
    if (!scenarioPanel.hidden) document.getElementById('scenario-id').focus();
  });
  function scenario(save) {
    var id = document.getElementById('scenario-id').value.trim();
    api('POST', 'api/conversations/' + active + '/scenario', { id: id, save: save }).then(function (result) {
      scenarioResult.className = result.refused ? 'scenario-result bad' : 'scenario-result';
      scenarioResult.textContent = result.refused ? 'Not a scenario: ' + result.refused : result.file ? 'Saved as ' + result.file + '.' : 'The file:';
      scenarioOut.hidden = !result.yaml;
      scenarioOut.textContent = result.yaml || '';
    }).catch(function (error) { scenarioResult.className = 'scenario-result bad'; scenarioResult.textContent = error.message; });
  }
  document.getElementById('scenario-show').addEventListener('click', function () { scenario(false); });
  document.getElementById('scenario-form').addEventListener('submit', function (event) { event.preventDefault(); scenario(true); });

  if (HAS_AGENT) {
    var output = document.getElementById('agent-output');
    var agentState = document.getElementById('agent-state');
    var shown = '';
    var poll = function () {
      api('GET', 'api/agent').then(function (result) {
        var text = result.lines.join('\\n');
        if (text !== shown) {
          var atEnd = output.scrollTop + output.clientHeight >= output.scrollHeight - 4;
          output.textContent = text;
          shown = text;
          if (atEnd) output.scrollTop = output.scrollHeight;
        }
        if (!restarting) agentState.textContent = result.state;
      }).catch(function () { agentState.textContent = 'the chat server does not answer'; });
    };
    poll();
    setInterval(poll, 1500);
    var restarting = false;
    document.getElementById('agent-restart').addEventListener('click', function () {
      if (restarting) return;
      restarting = true;
      agentState.textContent = 'restarting: waiting for the agent to answer again…';
      say('Restarting the agent: the page is ready once it answers again.');
      api('POST', 'api/agent/restart').then(function (result) {
        agentState.textContent = result.state;
        say(result.answers ? 'The agent was restarted and answers again: ready.' : 'The agent was restarted, but ' + result.reason);
        poll();
      }).catch(function (error) { say('Could not restart the agent: ' + error.message); })
        .then(function () { restarting = false; });
    });
  }

  showOwn();
  newConversation(true);
})();`;
