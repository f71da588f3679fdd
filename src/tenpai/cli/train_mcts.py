"""``tenpai train mcts``: seed 000's search model trained by self-play with search.

The work is in :mod:`tenpai.mcts.train`.  The run writes ``--out`` and a checkpoint beside it
(``<out>.ckpt``) after every model version; the same command started again after a kill
continues from there.  Exit codes: 0 done, 2 bad arguments or an unusable checkpoint (one line,
nothing overwritten).
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

RULES_HELP = ("Rule set of the games: suits108 (the paper's 108-tile game) or riichi (Tenhou "
              "rules, east-only games).")
RULES_HELP_DATA = "Rule set of the strategy data (suits108 or riichi); must match --data."


def mcts(
    out: Path = typer.Option(..., "--out", "-o", help="Model file to write (checkpoint beside "
                             "it as <out>.ckpt; TensorBoard logs in <out>.tb)."),
    rules: str = typer.Option("suits108", "--rules", help=RULES_HELP),
    size: str = typer.Option("small", "--size", help="Network size: paper (12 blocks x 128 "
                             "channels, the paper's), medium (6x64), small (3x32), tiny (1x16)."),
    simulations: int = typer.Option(16, "--simulations", help="Search simulations per move in "
                                    "self-play (the paper: 250)."),
    tables: int = typer.Option(8, "--tables", help="Self-play tables searched together (their "
                               "leaves share one network call per round)."),
    games_per_version: int = typer.Option(8, "--games-per-version", help="Self-play games (of "
                                          "four hands) per model version."),
    steps_per_version: int = typer.Option(100, "--steps-per-version", help="SGD steps on the "
                                          "replay buffer after each version's games (0: the "
                                          "model stays frozen and only plays, e.g. to make "
                                          "strategy data for dropout learning)."),
    batch_size: int = typer.Option(64, "--batch-size", help="Windows per SGD step (the paper: "
                                   "256)."),
    unroll: int = typer.Option(3, "--unroll", help="K, the unrolled steps per window (the "
                               "paper: 6)."),
    lr: float = typer.Option(0.01, "--lr", help="Initial learning rate; divided by ten after "
                             "the 10th and 20th version (the paper's annealing)."),
    buffer_versions: int = typer.Option(4, "--buffer-versions", help="The replay buffer keeps "
                                        "the games of this many latest versions."),
    value_target: str = typer.Option("sign", "--value-target", help="sign: -1/0/1 by the "
                                     "hand's point change (the paper); scaled: change/8000, "
                                     "clipped."),
    reward: bool = typer.Option(True, "--reward/--no-reward", help="Train and back up the "
                                "dynamics' reward (--no-reward: the paper's backup, value only)."),
    access: str = typer.Option("full", "--access", help="Feature access (Fig. 7a): full, "
                               "removed (others' hands and the wall zeroed) or random."),
    warmup_games: int = typer.Option(0, "--warmup-games", help="Games of --teacher put in the "
                                     "replay buffer before the first version (not in the "
                                     "paper: a warm start; 0 = off)."),
    teacher: str = typer.Option("efficiency", "--teacher", help="Rule agent of the warm start."),
    init: Path | None = typer.Option(None, "--init", help="Start from this model file (e.g. "
                                     "from `tenpai train mcts-warm`) instead of random "
                                     "weights; ignored when resuming."),
    teacher_data: Path | None = typer.Option(None, "--teacher-data", help="A warm start's "
                                             "<out>.data: its training games stay in reach "
                                             "for the whole run."),
    teacher_fraction: float = typer.Option(0.0, "--teacher-fraction", help="Share of every "
                                           "batch drawn from --teacher-data (0 = none)."),
    outcomes: str = typer.Option("choose", "--outcomes", help="Search: choose (the paper: "
                                 "each (action, outcome) an edge) or chance (expectation over "
                                 "the other players' answers)."),
    unvisited: str = typer.Option("zero", "--unvisited", help="Search: Q of untried actions, "
                                  "zero (the paper) or parent (the node's own value)."),
    minutes: float = typer.Option(10.0, "--minutes", help="Wall-clock budget; a version in "
                                  "progress is finished."),
    max_versions: int | None = typer.Option(None, "--max-versions", help="Stop after this many "
                                            "versions in all (resumed runs included)."),
    seed: int = typer.Option(0, "--seed", help="Seed of deals, noise and sampling."),
    threads: int = typer.Option(1, "--threads", help="Torch CPU threads."),
    workers: int = typer.Option(1, "--workers", help="Self-play processes (or Ray actors) "
                                "per version, one CPU each; training stays in this process. "
                                "The games do not depend on it."),
    backend: str = typer.Option("local", "--backend", help="local: worker processes; ray: "
                                "Ray actors (needs the 'ray' extra)."),
    gate_deals: int = typer.Option(0, "--gate-deals", help="Gating, the paper's update step: "
                                   "each new version plays the best one so far, two against "
                                   "two, over this many deals (each twice, seats swapped) and "
                                   "replaces it in self-play only if it wins more than "
                                   "--gate-threshold of them (0 = every version replaces the "
                                   "last; the paper: 1,000 games)."),
    gate_simulations: int | None = typer.Option(None, "--gate-simulations", help="Search "
                                                "simulations in the gate's games (default: "
                                                "--simulations)."),
    gate_threshold: float = typer.Option(0.5, "--gate-threshold", help="Pair win rate a new "
                                         "version must beat to replace the best."),
    bn_stats: str = typer.Option("update", "--bn-stats", help="Batch-norm running statistics "
                                 "in self-play training: update, or frozen as the start "
                                 "(--init) left them."),
    tensorboard: Path | None = typer.Option(None, "--tensorboard", help="TensorBoard log "
                                            "directory (default: <out>.tb)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON summary last."),
) -> None:
    """Train the search model (representation, dynamics, prediction) by self-play with search."""
    from rich.console import Console

    from tenpai.mcts.train import CheckpointError, MCTSTrainConfig, train_mcts

    err = Console(stderr=True, soft_wrap=True)
    try:
        if threads < 1:
            raise ValueError(f"threads must be at least 1, got {threads}")
        cfg = MCTSTrainConfig(
            out=str(out), rules=rules, size=size, access=access, simulations=simulations,
            tables=tables,
            games_per_version=games_per_version, steps_per_version=steps_per_version,
            batch_size=batch_size, unroll=unroll, lr=lr, buffer_versions=buffer_versions,
            value_target=value_target,  # type: ignore[arg-type]
            use_reward=reward, max_versions=max_versions, minutes=minutes, seed=seed,
            warmup_games=warmup_games, teacher=teacher,
            init=str(init) if init else None,
            teacher_data=str(teacher_data) if teacher_data else None,
            teacher_fraction=teacher_fraction, outcomes=outcomes, unvisited=unvisited,
            threads=threads, workers=workers, backend=backend, gate_deals=gate_deals,
            gate_simulations=gate_simulations, gate_threshold=gate_threshold, bn_stats=bn_stats,
            tensorboard=str(tensorboard or out.with_name(out.name + ".tb")),
        )
    except ValueError as exc:
        err.print(f"error: {exc}")
        raise typer.Exit(2) from None
    if out.exists() and out.is_dir():
        err.print(f"error: --out {out} is a directory")
        raise typer.Exit(2)

    def report(progress: object, row: dict[str, float]) -> None:
        losses = "".join(f"{k} {row[k]:.3f}  " for k in ("policy", "value", "reward",
                                                          "transition") if k in row)
        gate = (f"gate {row['gate_win_rate']:.2f} "
                f"({'kept' if row['gate_accepted'] else 'refused'}, best v"
                f"{int(row['best_version'])})  " if "gate_win_rate" in row else "")
        err.print(
            f"version {int(row['version'])}  games {int(row['games'])}  {losses}{gate}"
            f"sims/s {row['sims_per_s']:.0f}  cpu {row['cpu_minutes']:.1f} min"
        )

    from tenpai.selfplay.ray_backend import RayUnavailableError

    try:
        path, progress = train_mcts(cfg, report=report)
    except (CheckpointError, ValueError, RayUnavailableError) as exc:
        err.print(f"error: {exc}")
        raise typer.Exit(2) from None
    summary = {
        "out": str(path), "versions": progress.version, "games": progress.games,
        "steps": progress.steps, "decisions": progress.decisions,
        "cpu_minutes": round(progress.cpu_seconds / 60, 2), "history": progress.history,
    }
    err.print(f"wrote {path}: {progress.version} versions, {progress.games} games, "
              f"{summary['cpu_minutes']} CPU minutes")
    if as_json:
        typer.echo(json.dumps(summary, sort_keys=True))


def dropout(
    data: list[Path] = typer.Option(..., "--data", help="A `tenpai train mcts` checkpoint "
                                    "(<out>.ckpt): its replay buffer is the search's strategy "
                                    "data.  Repeat to pool several runs' buffers."),
    out: Path = typer.Option(..., "--out", "-o", help="Model file of the normal agent."),
    rules: str = typer.Option("suits108", "--rules", help=RULES_HELP_DATA),
    size: str = typer.Option("small", "--size", help="Network size (paper: 12x128; the "
                             "paper's normal agent is 64x256)."),
    steps: int = typer.Option(2000, "--steps", help="Adam steps (the paper: 660,000)."),
    batch_size: int = typer.Option(128, "--batch-size", help="Samples per step (paper 512)."),
    lr: float = typer.Option(0.001, "--lr", help="Adam learning rate (betas 0.9, 0.99)."),
    decay_steps: int = typer.Option(150, "--decay-steps", help="Steps between lowering the "
                                    "keep probability p of the hidden features by 0.1 (the "
                                    "paper: 60,000)."),
    baseline: bool = typer.Option(False, "--baseline", help="p = 0 throughout (Fig. 8's agent "
                                  "without the Bernoulli matrix)."),
    holdout: float = typer.Option(0.0, "--holdout", help="Share of the hands kept out of "
                                  "training; the agent's agreement with the search on them "
                                  "is reported."),
    eval_every: int = typer.Option(0, "--eval-every", help="Every this many steps (and at the "
                                   "end) rate the agent against three --eval-opponent seats: "
                                   "Tenhou stable dan, the paper's Fig. 8 (0 = never)."),
    eval_deals: int = typer.Option(16, "--eval-deals", help="Deals per rating; each is played "
                                   "four times, the agent in every seat once."),
    eval_opponent: str = typer.Option("defensive", "--eval-opponent", help="Registry agent in "
                                      "the other three seats of a rating."),
    safety: bool = typer.Option(False, "--safety", help="Also give the normal agent the "
                                "public safety planes (per opponent, the kinds passed since "
                                "its hand last changed); the data must have been recorded "
                                "with them (search runs since 2026-11-26)."),
    expert_data: Path | None = typer.Option(None, "--expert-data", help="A rule agent's games "
                                            "(the .data file of `tenpai train mcts-warm "
                                            "--teacher defensive`) to mix into every batch "
                                            "(ours; the paper learns from the search alone)."),
    expert_fraction: float = typer.Option(0.0, "--expert-fraction", help="Share of every batch "
                                          "from --expert-data (1 = a clone of the rule "
                                          "agent)."),
    seed: int = typer.Option(0, "--seed", help="Seed of sampling, masks and the held-out "
                             "hands."),
    as_json: bool = typer.Option(False, "--json", help="Print the run's history as JSON."),
) -> None:
    """Dropout learning: train the imperfect-information agent on the search's policies."""
    from rich.console import Console

    from tenpai.mcts.dropout import DropoutConfig, train_dropout
    from tenpai.mcts.train import CheckpointError
    from tenpai.progress import StepProgress

    err = Console(stderr=True, soft_wrap=True)
    if out.exists() and out.is_dir():
        err.print(f"error: --out {out} is a directory")
        raise typer.Exit(2)
    try:
        cfg = DropoutConfig(data=tuple(str(d) for d in data), out=str(out), rules=rules,
                            size=size,
                            steps=steps, batch_size=batch_size, lr=lr,
                            decay_steps=decay_steps, baseline=baseline, safety=safety,
                            expert_data=str(expert_data) if expert_data else None,
                            expert_fraction=expert_fraction, seed=seed,
                            holdout=holdout, eval_every=eval_every, eval_deals=eval_deals,
                            eval_opponent=eval_opponent)
        with StepProgress("dropout learning", steps, unit="steps", console=err) as bar:
            def report(n: int, row: dict[str, float]) -> None:
                rated = "stable_dan" in row
                bar.update(n, note=f"step {int(row['step'])}: stable dan "
                           f"{row['stable_dan']:.2f}, mean place {row['mean_rank']:.2f}"
                           if rated else "")

            path, model = train_dropout(cfg, report=report)
    except (CheckpointError, ValueError) as exc:
        err.print(f"error: {exc}")
        raise typer.Exit(2) from None
    for row in cfg.history:
        if "stable_dan" in row:
            held = (f"  held-out agreement {row['held_agreement']:.3f}"
                    if "held_agreement" in row else "")
            err.print(f"step {int(row['step'])}  p {row['p']:.1f}  stable dan "
                      f"{row['stable_dan']:.2f}  mean rank {row['mean_rank']:.2f}{held}")
    last = cfg.history[-1]
    err.print(f"wrote {path}: {model.card['samples']} samples, final loss {last['loss']:.3f} "
              f"at p = {last['p']:.1f}")
    if as_json:
        typer.echo(json.dumps({"out": str(path), "samples": model.card["samples"],
                               "held_out_samples": model.card["held_out_samples"],
                               "history": cfg.history}, sort_keys=True))


def mcts_warm(
    out: Path = typer.Option(..., "--out", "-o", help="Model file to write (teacher data in "
                             "<out>.data, checkpoint in <out>.ckpt)."),
    rules: str = typer.Option("suits108", "--rules", help=RULES_HELP),
    teacher: str = typer.Option("expert", "--teacher", help="Rule agent whose games are "
                                "learned (expert is the strongest 108-tile rule agent here)."),
    games: int = typer.Option(400, "--games", help="Teacher games (of four hands) recorded."),
    holdout: int = typer.Option(16, "--holdout", help="The last games, never trained on: "
                                "teacher agreement and value error are measured on them."),
    steps: int = typer.Option(4000, "--steps", help="Adam steps on K-step windows."),
    batch_size: int = typer.Option(64, "--batch-size", help="Windows per step."),
    unroll: int = typer.Option(3, "--unroll", help="K, unrolled dynamics steps per window "
                               "(as in `train mcts`)."),
    lr: float = typer.Option(1e-3, "--lr", help="Adam learning rate, cosine-annealed to "
                             "--lr-final."),
    lr_final: float = typer.Option(1e-4, "--lr-final", help="Learning rate at the last step."),
    size: str = typer.Option("small", "--size", help="Network size (paper, medium, small, "
                             "tiny)."),
    access: str = typer.Option("full", "--access", help="Feature access: full, removed, "
                               "random."),
    value_target: str = typer.Option("sign", "--value-target", help="sign or scaled."),
    reward: bool = typer.Option(True, "--reward/--no-reward", help="Train the reward head."),
    checkpoint_steps: int = typer.Option(250, "--checkpoint-steps", help="Steps between "
                                         "checkpoints (and held-out measurements)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the teacher's deals and of sampling."),
    threads: int = typer.Option(1, "--threads", help="Torch CPU threads."),
) -> None:
    """Supervised warm start: all three networks learn a rule agent's games before search."""
    from rich.console import Console

    from tenpai.mcts.train import CheckpointError
    from tenpai.mcts.warmstart import WarmStartConfig, warm_start

    err = Console(stderr=True, soft_wrap=True)
    try:
        cfg = WarmStartConfig(
            out=str(out), rules=rules, teacher=teacher, games=games, holdout=holdout, steps=steps,
            batch_size=batch_size, unroll=unroll, lr=lr, lr_final=lr_final, size=size,
            access=access, value_target=value_target,  # type: ignore[arg-type]
            use_reward=reward, checkpoint_steps=checkpoint_steps, seed=seed, threads=threads,
        )
    except ValueError as exc:
        err.print(f"error: {exc}")
        raise typer.Exit(2) from None

    def report(progress: object, row: dict[str, float]) -> None:
        err.print("  ".join(f"{k} {v:.4g}" for k, v in row.items()))

    try:
        path, progress = warm_start(cfg, report=report)
    except (CheckpointError, ValueError) as exc:
        err.print(f"error: {exc}")
        raise typer.Exit(2) from None
    err.print(f"wrote {path}: {progress.games} games, {progress.decisions} decisions, "
              f"{progress.steps} steps, {progress.cpu_seconds / 60:.1f} CPU minutes")


def register(train_app: typer.Typer) -> None:
    train_app.command("mcts")(mcts)
    train_app.command("mcts-warm")(mcts_warm)
    train_app.command("dropout")(dropout)
