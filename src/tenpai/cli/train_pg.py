"""``tenpai train pg`` (policy-gradient self-play, seed 002) and ``tenpai train imitate`` (its
MCR start model, imitating a rule agent).

The work is in :mod:`tenpai.rl.pg`.  The run checkpoints beside ``--out`` (``<out>.ckpt``) every
``--checkpoint-minutes``; the same command started again after a kill continues from there.
Exit codes: 0 done, 2 bad arguments, an unusable start model or checkpoint (one line, nothing
overwritten).
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from tenpai.cli._flags import old_spelling, renamed
from tenpai.cli._learn import fail

RULES = ("riichi", "mcr", "suits108")
#: Points worth 1.0 of reward by default: a mangan, 24 Botzone points, a declared ready win
#: on a discard (2 × 1,000).
POINTS_SCALE = {"riichi": 8000.0, "mcr": 24.0, "suits108": 2000.0}
#: The preset each rule set trains under unless --preset says otherwise.
DEFAULT_PRESET = {"riichi": "tenhou", "mcr": "botzone", "suits108": "paper"}
REWARDS = ("hand", "rank")


def game_options(rules: str, preset: str | None, length: str) -> dict[str, str]:
    """The game options of a self-play command: the preset (the rule set's default unless
    given) and, for Riichi only, the game length."""
    options = {"preset": preset or DEFAULT_PRESET[rules]}
    if rules == "riichi":
        options["length"] = length
    return options


def pg(
    ctx: typer.Context,
    rules: str = typer.Option("riichi", "--rules", help="Rule set: riichi, mcr, or suits108 "
                              "(fine-tunes seed 000's normal agent, a `train dropout` model)."),
    preset: str | None = typer.Option(None, "--preset", help="Rule preset (riichi: tenhou; "
                                      "mcr: botzone, the one-hand games of seed 002; suits108: "
                                      "paper)."),
    length: str = typer.Option("tonpuu", "--length", help="Riichi game length: tonpuu|hanchan."),
    init: str = typer.Option("default", "--init", help="Start model: 'default' (the shipped "
                             "weights of the rule set: supervised, or suits108's dropout "
                             "agent) or a model file."),
    out: Path = typer.Option(..., "--out", "-o", help="Model file to write (checkpoint beside "
                             "it as <out>.ckpt)."),
    minutes: float = typer.Option(10.0, "--minutes", min=0.0, help="Wall-clock budget."),
    max_games: int | None = typer.Option(None, "--games", help="Stop after this many "
                                         "self-play games in all (resumed runs included; "
                                         "default: --minutes alone)."),
    max_games_old: int | None = old_spelling("--max-games", "--games"),
    games_per_update: int = typer.Option(16, "--games-per-update", help="Self-play games per "
                                         "update (vine: greedy trunk games)."),
    tables: int = typer.Option(16, "--tables", help="Tables played at once (one network call "
                               "per step for all of them)."),
    lr: float = typer.Option(1e-5, "--lr", help="Adam learning rate."),
    entropy: float = typer.Option(0.01, "--entropy", help="Entropy bonus weight (002's alpha)."),
    kl_start: float = typer.Option(0.0, "--kl-start", help="REINFORCE: weight of the KL "
                                   "divergence from the frozen start policy in the loss, an "
                                   "anchor against drifting from what the start does well "
                                   "(0: none; not in 002)."),
    temperature: float = typer.Option(1.0, "--temperature", help="Softmax temperature of the "
                                      "sampled discards."),
    reward: str = typer.Option("hand", "--reward", help="Outcome: 'hand' (the seat's points "
                               "over the hand) or 'rank' (final placement)."),
    shaping: float = typer.Option(0.1, "--shaping", help="Weight of one shanten step of 002's "
                                  "win-distance shaping (0: off; REINFORCE only, the vine "
                                  "compares hand outcomes)."),
    shaping_discount: float = typer.Option(1.0, "--shaping-discount", help="Discount of the "
                                           "shaping within a hand: 1 credits a discard with all "
                                           "the shaping to the end of its hand, 0 with its own "
                                           "shanten step only (002's literal reading; see "
                                           "docs/rl.md)."),
    points_scale: float | None = typer.Option(None, "--points-scale", help="Points worth 1.0 of "
                                              "reward (default: 8000 Riichi, 24 MCR, 2000 "
                                              "suits108)."),
    baseline: str = typer.Option("mean", "--baseline", help="What is subtracted from each "
                                 "return: 'mean' (the batch's), 'none', or 'critic' (a learned "
                                 "value of the position, less noisy; see docs/rl.md)."),
    opponents: str = typer.Option("self", "--opponents", help="Who the learner plays "
                                  "(REINFORCE): 'self' (four copies of itself, 002's "
                                  "self-play), 'start' (two seats against two greedy copies "
                                  "of the frozen start model, the arena's line-up), or an "
                                  "agent's name in those two seats (e.g. defensive)."),
    defence: str = typer.Option("learned", "--defence", help="Riichi REINFORCE: who plays the "
                                "discards under another seat's riichi: 'learned' (the learner, "
                                "as every discard, 002) or 'start' (the frozen start's "
                                "discard head, shipped in the model; only the other discards "
                                "are learned)."),
    heads: str = typer.Option("discard", "--heads", help="Riichi REINFORCE: the heads whose "
                              "choices are sampled and trained, comma-separated: discard "
                              "(002) and any of riichi, pon, chi; the others play as the "
                              "start's (see docs/rl.md)."),
    estimator: str = typer.Option("reinforce", "--estimator", help="Gradient estimator: "
                                  "'reinforce' (sampled self-play, seed 002) or 'vine' (greedy "
                                  "games; at chosen discards the greedy kind and a few others "
                                  "are each played out to the end of the hand from a copy of "
                                  "the table, and the policy learns their differences: far less "
                                  "noise per decision, see docs/rl.md)."),
    vine_states: int = typer.Option(8, "--vine-states", help="Vine: branch points per game "
                                    "(discard decisions with two or more legal kinds, drawn "
                                    "uniformly); each costs 'alternatives' rollouts to the end "
                                    "of its hand."),
    vine_alternatives: int = typer.Option(2, "--vine-alternatives", help="Vine: discards "
                                          "compared with the greedy one at each branch point, "
                                          "drawn from the policy's softmax at --temperature "
                                          "(at least 1)."),
    critic_lr: float = typer.Option(3e-4, "--critic-lr", help="Adam learning rate of the critic."),
    critic_epochs: int = typer.Option(2, "--critic-epochs", min=1, help="Critic passes over "
                                      "each batch."),
    critic_warmup: int = typer.Option(0, "--critic-warmup", min=0, help="First self-play games "
                                      "that teach only the critic (the policy waits for a "
                                      "trained baseline)."),
    eval_every: int = typer.Option(0, "--eval-every", min=0, help="Games between learning-curve "
                                   "evaluations against the start (0: none)."),
    eval_opponent: str = typer.Option("start", "--eval-opponent", help="Whom the learning "
                                      "curve's greedy learner meets: 'start' (the frozen start "
                                      "model) or an agent's name."),
    eval_deals: int = typer.Option(32, "--eval-deals", help="Deals per evaluation (each played "
                                   "twice, seats swapped)."),
    checkpoint_minutes: float = typer.Option(5.0, "--checkpoint-minutes", min=0.0,
                                             help="Wall-clock minutes between checkpoints."),
    seed: int = typer.Option(0, "--seed", help="Seed of deals and of the sampling."),
    threads: int = typer.Option(1, "--threads", min=1, help="Torch CPU threads."),
    tensorboard: Path | None = typer.Option(None, "--tensorboard", help="TensorBoard log "
                                            "directory (default: <out>.tb)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON summary last."),
) -> None:
    """Fine-tune the discard network of a supervised model by self-play policy gradient
    (REINFORCE, seed 002, or the vine estimator); on suits108, the whole policy of seed 000's
    dropout student (REINFORCE)."""
    max_games = renamed(ctx, "max_games", max_games, max_games_old, "--max-games")
    from rich.console import Console

    from tenpai.models.bundle import ModelError
    from tenpai.rl.checkpoint import CheckpointError
    from tenpai.rl.pg import PGConfig, PGProgress, train_pg
    from tenpai.rl.rewards import RewardConfig

    err = Console(stderr=True)
    if rules not in RULES:
        raise typer.BadParameter(f"choose {', '.join(RULES)}", param_hint="--rules")
    if reward not in REWARDS:
        raise typer.BadParameter(f"choose {', '.join(REWARDS)}", param_hint="--reward")
    options = game_options(rules, preset, length)
    scale = points_scale if points_scale is not None else POINTS_SCALE[rules]
    try:
        cfg = PGConfig(
            rules=rules,
            options=options,
            init=init,
            out=str(out),
            games_per_update=games_per_update,
            tables=tables,
            lr=lr,
            entropy=entropy,
            kl_start=kl_start,
            temperature=temperature,
            baseline=baseline,
            estimator=estimator,
            opponents=opponents,
            defence=defence,
            heads=tuple(h.strip() for h in heads.split(",") if h.strip()),
            vine_states=vine_states,
            vine_alternatives=vine_alternatives,
            critic_lr=critic_lr,
            critic_epochs=critic_epochs,
            critic_warmup=critic_warmup,
            reward=RewardConfig(outcome=reward, points_scale=scale, shaping=shaping,
                                shaping_discount=shaping_discount),
            minutes=minutes,
            max_games=max_games,
            checkpoint_minutes=checkpoint_minutes,
            eval_every=eval_every,
            eval_opponent=eval_opponent,
            eval_deals=eval_deals,
            seed=seed,
            threads=threads,
            tensorboard=str(tensorboard if tensorboard is not None else
                            out.with_name(out.name + ".tb")),
        )
    except ValueError as exc:
        fail(str(exc))  # one plain line: the setting and why
    if out.exists() and out.is_dir():
        err.print(f"error: --out {out} is a directory")
        raise typer.Exit(2)

    from tenpai.rl.policy import DECISION_HEADS

    def report(progress: PGProgress, row: dict[str, float]) -> None:
        critic = ""
        if "critic_explained" in row:
            warm = "" if row["policy_step"] else " (warm-up: critic only)"
            critic = f"  critic R² {row['critic_explained']:+.3f}{warm}"
        if "mean_abs_adv" in row:
            critic = (f"  |A| {row['mean_abs_adv']:.3f}  alt>greedy {row['alt_better']:.0%}  "
                      f"branches {int(row['branches'])}")
        if "kl_start" in row:
            critic += f"  kl(start) {row['kl_start']:.4f}"
        parts = [f"games {int(row['games'])}"]
        if "entropy" in row:
            parts.append(f"return {row['mean_return']:+.3f}  entropy {row['entropy']:.3f}  "
                         f"kl {row['approx_kl']:+.5f}{critic}")
        parts += [f"{h} take {row[h + '_take']:.1%} (n {int(row[h + '_samples'])})"
                  for h in DECISION_HEADS if h + "_take" in row]
        err.print("  ".join([*parts, f"cpu {row['cpu_minutes']:.1f} min"]), soft_wrap=True)
        if progress.curve and progress.curve[-1]["games"] == row["games"]:
            c = progress.curve[-1]
            err.print(f"  vs {eval_opponent}: pair win rate {c['win_rate']:.3f} "
                      f"[{c['low']:.3f}, {c['high']:.3f}] over {int(c['deals'])} deals, "
                      f"mean place {c['learner_rank']:.2f} vs {c['start_rank']:.2f}",
                      soft_wrap=True)

    try:
        path, progress = train_pg(cfg, report=report)
    except (ModelError, CheckpointError, ValueError) as exc:
        fail(str(exc))  # plain text: a wrapped line would split the path and the reason
    summary = {
        "out": str(path),
        "games": progress.games,
        "updates": progress.updates,
        "samples": progress.samples,
        "cpu_minutes": round(progress.cpu_seconds / 60, 2),
        "curve": progress.curve,
    }
    err.print(f"wrote {path}: {progress.games} games, {progress.updates} updates, "
              f"{summary['cpu_minutes']} CPU minutes")
    if as_json:
        typer.echo(json.dumps(summary, sort_keys=True))


def imitate(
    out: Path = typer.Option(..., "--out", "-o", help="Model file to write."),
    teacher: str = typer.Option("planner", "--teacher", help="MCR agent to imitate (default: "
                                "planner, the strongest measured; efficiency was 002's start)."),
    games: int = typer.Option(2000, "--games", min=1, help="Self-play games to watch."),
    first_seed: int = typer.Option(0, "--first-seed", help="Seed of the first watched game "
                                   "(game i: first seed + i); --seed seeds the training."),
    tables: int = typer.Option(16, "--tables", min=1, help="Tables played at once."),
    minutes: float = typer.Option(10.0, "--minutes", min=0.0,
                                  help="Wall-clock budget of the training (all heads)."),
    width: int = typer.Option(48, "--width", min=1, max=512, help="ResNet width."),
    blocks: int = typer.Option(3, "--blocks", min=1, max=32, help="ResNet blocks."),
    seed: int = typer.Option(0, "--seed", help="Seed of the training shuffles (the watched "
                             "games are seeded by --first-seed)."),
    threads: int = typer.Option(1, "--threads", min=1, help="Torch CPU threads."),
) -> None:
    """MCR start model for `train pg`: imitate a rule agent over self-play games (Botzone rules)."""
    import torch
    from rich.console import Console

    from tenpai.progress import StepProgress
    from tenpai.rl.imitate import (
        ImitationConfig,
        check_teacher,
        collect_imitation,
        train_imitation,
    )

    err = Console(stderr=True)
    torch.set_num_threads(threads)
    try:
        cfg = ImitationConfig(teacher=teacher, games=games, first_seed=first_seed, tables=tables,
                              minutes=minutes, width=width, blocks=blocks, seed=seed)
        check_teacher(cfg)
        with StepProgress(f"watching {teacher}", games, unit="games", console=err) as bar:
            data = collect_imitation(cfg, progress=bar.update)
        counts = {h: data.count(h) for h in data.label}
        err.print(f"recorded decisions: {counts}")
        bundle = train_imitation(cfg, data)
    except ValueError as exc:
        err.print(f"error: {exc}")
        raise typer.Exit(2) from None
    bundle.save(out)
    for head, h in bundle.heads.items():
        err.print(f"{head}: dev accuracy {h.card['dev_accuracy']:.4f} on "
                  f"{h.card['dev_samples']} held-out decisions")
    err.print(f"wrote {out}")


def register(train_app: typer.Typer) -> None:
    train_app.command("pg")(pg)
    train_app.command("imitate")(imitate)
