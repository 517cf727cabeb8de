"""Cards: secrets masked, long text cut with a note, HTML escaped, within Telegram's limits."""

from __future__ import annotations

from datetime import timedelta

from adapters.cards import build_card, cut, mask_secrets, plain_text
from adapters.telegram_channel import parse_data, render_html
from core.models import Approval, Status, utcnow
from core.tiers import Tier


def approval(**kw) -> Approval:
    now = utcnow()
    base = dict(id="abc123def456", status=Status.PENDING, tier=Tier.HIGH, reason="recursive delete of build",
                action="terminal", command="rm -rf build", created_at=now, deadline=now + timedelta(seconds=30))
    return Approval(**(base | kw))


def test_secrets_are_masked():
    cases = [
        "curl -H 'Authorization: Bearer sk-proj-abcdefghijklmnop1234' https://api",
        "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY aws s3 ls",
        "mysql --password=hunter2hunter2 -e 'select 1'",
        "DB_PASSWORD=s3cr3tvalue ./run",
        "git clone https://user:ghp_abcdefghijklmnopqrstuvwxyz0123@github.com/x/y",
        "export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123",
    ]
    for text in cases:
        masked = mask_secrets(text)
        assert "••••" in masked, text
        for secret in ("abcdefghijklmnop1234", "wJalrXUtnFEMI", "hunter2hunter2", "s3cr3tvalue", "ghp_abcdefghij"):
            assert secret not in masked, masked
    assert mask_secrets("rm -rf build && git push origin main") == "rm -rf build && git push origin main"


def test_passwords_given_to_clients_are_masked():
    # the spellings clients take a password in: attached, user:password, pass:, quoted, cookies
    cases = {
        "mysql -u root -pS3cretPass db": "S3cretPass",
        "mysqldump -uroot -p'two words' db": "two words",
        "curl -u admin:hunter2x https://x": "hunter2x",
        "curl --proxy-user bob:pw12345 https://x": "pw12345",
        "redis-cli -h cache -a s3cretpw ping": "s3cretpw",
        "openssl rsa -passin pass:topsecret -in k.pem": "topsecret",
        'export API_TOKEN="two words here"': "words here",
        "curl -H 'Cookie: session=abcdef123' https://x": "abcdef123",
        "PGPASSWORD=hunter22 psql -h db": "hunter22",
    }
    for text, secret in cases.items():
        masked = mask_secrets(text)
        assert secret not in masked and "••••" in masked, masked
        assert "••••••••" not in masked, masked  # one mask per value
    for plain in ("mkdir -pv d && cp -pr a b", "ssh -p2222 host", "git commit -a -m fix", "mysql -p db", "ls -u"):
        assert mask_secrets(plain) == plain
    card = build_card(approval(reason="reads secrets in `mysql -uroot -pS3cretPass`"))
    assert "S3cretPass" not in card.reason and "S3cretPass" not in plain_text(card)


def test_long_text_is_cut_with_a_note():
    text = "x" * 10_000
    out = cut(text, 1500)
    assert len(out) < 1600 and out.endswith("more characters cut") and "8,540" in out


def test_html_is_escaped_and_within_limits():
    hostile = "<b>evil</b> & <a href='x'>" + "y" * 40_000
    a = approval(command=hostile, description=hostile, agent="<script>", action="<i>" * 40)
    html = render_html(build_card(a))
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<b>evil</b>" not in html
    assert len(html) < 4096


def test_outcome_shown_and_no_time_left_after_decision():
    a = approval(status=Status.APPROVED, decided_by="telegram:1", decided_by_name="@alice", decided_at=utcnow())
    card = build_card(a)
    assert not card.buttons and card.time_left is None and "Approved by @alice" in plain_text(card)
    expired = build_card(approval(status=Status.EXPIRED, decided_by="timeout", decided_at=utcnow()))
    assert "Expired" in expired.outcome and "pending" not in plain_text(expired).lower()


def test_callback_data_parsing_refuses_junk():
    assert parse_data("a:abc123def456") == (True, "abc123def456")
    assert parse_data("d:abc123def456") == (False, "abc123def456")
    for junk in (None, "", "x:abc", "a:", "a:../../etc", "a:" + "1" * 70, "approve"):
        assert parse_data(junk) is None


def test_terminal_shows_hidden_characters_instead_of_obeying_them():
    import asyncio
    import io

    from adapters.terminal import TerminalChannel

    out = io.StringIO()
    hostile = "rm -rf / \x1b[1A\x1b[2K\rCommand: ls -la\u202e\x00\nWhy: harmless"
    asyncio.run(TerminalChannel(out).post_card(approval(command=hostile, agent="\x1b]0;pwned\x07")))
    text = out.getvalue()
    assert "\x1b" not in text and "\r" not in text and "\u202e" not in text and "\x00" not in text
    assert "\\x1b[1A" in text and "\\u202e" in text
    # The forged "Why:" line stays inside the command field.
    assert "\n    | Why: harmless" in text
    telegram_html = render_html(build_card(approval(command=hostile)))
    assert "\u202e" not in telegram_html and "\x1b" not in telegram_html


def test_cards_show_who_asked_beside_the_agent():
    from adapters.discord_channel import render_embed

    both = build_card(approval(agent="deploy-bot", requester_uid=1001, requester_pid=4242))
    assert both.agent == "deploy-bot (uid 1001, pid 4242)"
    assert "Agent: deploy-bot (uid 1001, pid 4242)" in plain_text(both)
    assert "<b>Agent:</b> deploy-bot (uid 1001, pid 4242)" in render_html(both)
    assert {"name": "Agent", "value": "deploy-bot (uid 1001, pid 4242)", "inline": True} in \
        render_embed(both).to_dict()["fields"]
    assert build_card(approval(requester_uid=1001)).agent == "uid 1001"  # no name given, no pid known
    assert build_card(approval(agent="<b>x</b>")).agent == "<b>x</b>"  # nothing known: the name alone
    assert build_card(approval()).agent is None
