"""End to end in headless Chromium: the page opens, frames arrive, an emitter's rate edit
changes its alive count, a broken binding shows its error at its column, undo, save (the
file differs from the original in the edited value only), two tabs, an external edit."""
from __future__ import annotations

import difflib
import re
import time

from tests.studio.conftest import DEMO, NOZZLE

LIT = """() => { const c = document.getElementById('view');
  const probe = document.createElement('canvas'); probe.width = c.width; probe.height = c.height;
  const g = probe.getContext('2d'); g.drawImage(c, 0, 0);
  const d = g.getImageData(0, 0, c.width, c.height).data; let lit = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] > 60) lit++;
  return lit; }"""


def frames(page) -> int:
    return page.evaluate("Number(document.getElementById('view').dataset.frames || 0)")


def alive(page) -> int:
    return int(page.locator(f"#alive tr[data-emitter='{NOZZLE}'] .count").inner_text())


def wait_for(check, timeout=20.0, every=0.1):
    """Poll from here (page.evaluate, not wait_for_function: the page's policy forbids eval)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(every)
    raise AssertionError(f"not within {timeout} s: {check.__doc__ or check}")


def settle(page):
    """No request of the page on its way (body[data-busy] is 0): what an edit changed is drawn."""
    wait_for(lambda: page.evaluate("document.body.dataset.busy || '0'") == "0")


def select_nozzle(page):
    page.click("#tree li[data-path='%s']" % NOZZLE)
    page.wait_for_selector(".row[data-name='Emission.Rate'] input.value")


def set_number(page, name: str, value: str):
    settle(page)                # the panel drawn again after the last edit: this box is the one shown
    box = page.locator(f".row[data-name='{name}'] input.value")
    box.fill(value)
    box.press("Enter")          # a change event: the page posts the edit


def test_frames_arrive_and_the_canvas_is_not_blank(page):
    wait_for(lambda: frames(page) > 5)
    first = frames(page)
    wait_for(lambda: frames(page) > first + 5)   # a stream, not one picture
    assert page.evaluate(LIT) > 500              # the fountain's drops are drawn


def test_rate_edit_changes_the_alive_count(page):
    select_nozzle(page)
    # steady state of the demo: Rate x mean Lifetime = 400 x 1.6 = 640 alive
    wait_for(lambda: alive(page) > 450, timeout=30)
    set_number(page, "Emission.Rate", "40")
    # 40 x 1.6 = 64 once the 400/s drops have died (at most Lifetime + Variance = 1.8 s)
    wait_for(lambda: alive(page) < 110, timeout=30)
    assert page.locator(".row[data-name='Emission.Rate'] .mark").inner_text() == "●"


def test_a_broken_binding_shows_its_error_at_its_column(page):
    select_nozzle(page)
    expr = page.locator(".row[data-name='ParticleEmitter.MaximumAmount'] .binding input")
    expr.fill("{./Emission.Rate} * (2")
    out = page.locator(".row[data-name='ParticleEmitter.MaximumAmount'] .binding pre")
    wait_for(lambda: out.inner_text().strip() != "")
    text = out.inner_text()
    assert "column 23" in text and "expected ')'" in text
    caret = text.splitlines()[-1]
    assert caret == " " * 22 + "^"               # under the end of the text: where ')' is missing
    expr.fill("{./Emission.Rate} * 2")
    value = page.locator(".row[data-name='ParticleEmitter.MaximumAmount'] .binding .value")
    wait_for(lambda: value.inner_text() == "= 800")
    assert out.inner_text().strip() == ""


def test_undo_then_save_changes_only_the_edited_value(page, project):
    select_nozzle(page)
    set_number(page, "Emission.Rate", "800")
    wait_for(lambda: page.locator("#dirty").inner_text() != "")
    set_number(page, "Emission.Lifetime", "2.5")
    wait_for(lambda: "Lifetime" in (page.get_attribute("#undo", "title") or ""))
    settle(page)
    page.click("#undo")                          # the lifetime edit goes
    wait_for(lambda: "Rate" in (page.get_attribute("#undo", "title") or ""))
    settle(page)
    lifetime = page.locator(".row[data-name='Emission.Lifetime'] input.value")
    wait_for(lambda: lifetime.input_value() == "1.6")          # the panel is fetched again after the state
    page.click("#save")
    wait_for(lambda: "saved" in page.locator("#status").inner_text())
    before = DEMO.read_text(encoding="utf-8").splitlines()
    after = project.read_text(encoding="utf-8").splitlines()
    changed = [line for line in difflib.unified_diff(before, after, lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert changed == ['-                <Property name="Emission.Rate">400</Property>',
                       '+                <Property name="Emission.Rate">800</Property>']
    assert page.locator("#dirty").inner_text() == ""


def test_two_tabs_see_each_other_s_edits(page, studio, browser):
    other = browser.new_context().new_page()
    try:
        other.goto(studio.url)
        select_nozzle(other)
        select_nozzle(page)
        set_number(page, "Emission.Rate", "123")
        box = other.locator(".row[data-name='Emission.Rate'] input.value")
        wait_for(lambda: box.input_value() == "123")
    finally:
        other.context.close()


def test_an_external_edit_reloads_the_page_state(page, studio, project):
    select_nozzle(page)
    wait_for(lambda: studio.watcher.ready.is_set())
    text = project.read_text(encoding="utf-8")
    project.write_text(text.replace('"Emission.Rate">400<', '"Emission.Rate">77<'), encoding="utf-8")
    box = page.locator(".row[data-name='Emission.Rate'] input.value")
    wait_for(lambda: box.input_value() == "77")


def test_a_click_on_a_finding_selects_its_item_and_property(page):
    select_nozzle(page)
    expr = page.locator(".row[data-name='ParticleEmitter.MaximumAmount'] .binding input")
    expr.fill("{./Emission.Rat} * 2")           # applied: the validator finds the unknown property
    expr.press("Enter")
    finding = page.locator("#diagnostics li.error")
    finding.first.wait_for(timeout=10000)
    assert "Emission.Rat" in finding.first.inner_text()
    page.click("#tree li[data-path$='/Gravity']")
    page.wait_for_selector("#panel-title:has-text('Gravity')")
    finding.first.click()
    wait_for(lambda: page.locator(".row.highlight").count() == 1)
    assert page.locator(".row.highlight").get_attribute("data-name") == "ParticleEmitter.MaximumAmount"
    assert page.locator("#tree li.selected").get_attribute("data-path") == NOZZLE


SYSTEM = NOZZLE.rsplit("/", 1)[0]


def test_wire_a_subemitter_and_see_its_particles_then_undo(page):
    page.click(f"#tree li[data-path='{SYSTEM}']")
    page.wait_for_selector("#panel-title:has-text('Particle System')")
    page.select_option("#add-what", "type:ParticleEmitter")
    page.click("#add")
    new = f"{SYSTEM}/ParticleEmitter"
    page.wait_for_selector(f"#tree li[data-path='{new}']")
    page.click(f"#tree li[data-path='{new}']")
    page.wait_for_selector("#wire")
    page.select_option("#wire-source", NOZZLE)
    page.click("#wire")
    row = page.locator(f"#alive tr[data-emitter='{new}'] .count")
    # each of the nozzle's drops that dies (from 1.4 s of its life on) spawns one particle
    wait_for(lambda: row.count() == 1 and int(row.inner_text()) > 20, timeout=40)
    events = page.locator(".row[data-name='Emission.SourceEventBuffer'] .binding input")
    assert events.input_value() == "{@../Nozzle/ParticleEmitter.EventBuffer}"
    page.click("#undo")                              # the wiring goes; the new emitter stays
    wait_for(lambda: page.locator(".row[data-name='Emission.SourceEventBuffer'] .binding").count() == 0)
    page.click("#undo")                              # and then the emitter
    wait_for(lambda: page.locator(f"#tree li[data-path='{new}']").count() == 0)


def test_the_over_life_editors_set_colour_and_opacity(page):
    select_nozzle(page)
    page.select_option(".row[data-name='ParticleEmitter.ParticleMaterial'] select", "ParticlesColorOverLife3Stop")
    page.wait_for_selector(".gradient-editor .stop[data-name='ParticlesOverLife.ColorMid']")
    page.locator(".gradient-editor .stop[data-name='ParticlesOverLife.ColorStart']").fill("#ff0000")
    start = page.locator(".row[data-name='ParticlesOverLife.ColorStart']")
    wait_for(lambda: start.locator(".mark").inner_text() == "●")
    assert start.locator("input[type=color]").input_value() == "#ff0000"
    settle(page)
    curve = page.locator(".curve-editor.opacity canvas")
    box = wait_for(curve.bounding_box)
    end = (box["x"] + box["width"] - 8, box["y"] + 6)            # the end point, at opacity 1
    page.mouse.move(*end)
    page.mouse.down()
    page.mouse.move(end[0], box["y"] + box["height"] - 6, steps=4)   # down to 0
    page.mouse.up()
    opacity = page.locator(".row[data-name='ParticlesOverLife.OpacityEnd'] input.value")
    wait_for(lambda: opacity.input_value() == "0")
    assert "opacity over life" in page.get_attribute("#undo", "title")


def clock(page) -> float:
    return float(page.locator("#clock").inner_text().split()[0])


def picture(page) -> str:
    return page.evaluate("document.getElementById('view').toDataURL('image/png')")


def test_pause_step_speed_and_the_mouse_orbit(page, studio):
    wait_for(lambda: frames(page) > 5)
    page.click("#pause")
    wait_for(lambda: page.locator("#pause").inner_text() == "play")
    held = clock(page)
    time.sleep(0.5)
    assert clock(page) == held                                   # paused: the effect's time stands
    page.click("#step")
    wait_for(lambda: clock(page) != held)
    assert abs(clock(page) - held - 1 / 60) < 0.011              # one step of 1/60 s (the clock shows 2 decimals)
    before = picture(page)
    box = page.locator("#view").bounding_box()
    page.mouse.move(box["x"] + 320, box["y"] + 180)
    page.mouse.down()
    page.mouse.move(box["x"] + 420, box["y"] + 200, steps=5)    # orbit: the picture turns, the time does not
    page.mouse.up()
    wait_for(lambda: picture(page) != before)
    assert abs(clock(page) - held - 1 / 60) < 0.011
    page.select_option("#speed", "0.25")
    wait_for(lambda: studio.engine.player.clock.speed == 0.25)   # the Player's own clock (render/player.py)
    page.click("#pause")                                         # play on
    wait_for(lambda: clock(page) > held + 0.05)


def test_one_click_adds_what_a_material_reads_and_one_undo_removes_it(page):
    select_nozzle(page)
    add = page.locator(".group[data-material='Emitter_Point'] button.add-reads")
    assert add.inner_text().startswith("add the 8 ")
    add.click()
    wait_for(lambda: page.locator(".group[data-material='Emitter_Point'] button.add-reads").count() == 0)
    marks = page.locator(".group[data-material='Emitter_Point'] .row .mark")
    assert [m for m in marks.all_inner_texts() if m != "●"] == []
    page.click("#undo")
    wait_for(lambda: page.locator(".group[data-material='Emitter_Point'] button.add-reads").count() == 1)


def test_the_chart_draws_the_alive_count(page):
    wait_for(lambda: frames(page) > 30, timeout=30)
    lit = page.evaluate("""() => { const c = document.getElementById('chart');
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n; }""")
    assert lit > 300                                             # a line across the chart, and its label


def test_bind_an_unbound_property_then_unbind_it(page):
    select_nozzle(page)
    page.click(".row[data-name='Emission.Lifetime'] button.bind")
    expr = page.locator(".row[data-name='Emission.Lifetime'] .binding input")
    expr.fill("{./Emission.Rate} / 200")
    value = page.locator(".row[data-name='Emission.Lifetime'] .binding .value")
    wait_for(lambda: value.inner_text() == "= 2")
    expr.press("Enter")
    pool = page.locator(".row[data-name='ParticleEmitter.MaximumAmount'] input.value")
    wait_for(lambda: pool.input_value() == "880")            # 400 x (2 + 0.2): the pool's binding re-ran
    page.click(".row[data-name='Emission.Lifetime'] button.unbind")
    wait_for(lambda: pool.input_value() == "720")
    assert page.locator(".row[data-name='Emission.Lifetime'] button.bind").count() == 1


def children_of(page, parent: str) -> list[str]:
    depth = parent.count("/") + 1
    paths = page.eval_on_selector_all("#tree li", "els => els.map(e => e.dataset.path)")
    return [p.rsplit("/", 1)[1] for p in paths if p.startswith(parent + "/") and p.count("/") == depth]


def test_the_tree_tools_duplicate_rename_move_and_remove(page):
    gravity = f"{SYSTEM}/Gravity"
    page.click(f"#tree li[data-path='{gravity}']")
    page.wait_for_selector("#panel-title:has-text('Gravity')")
    page.click("#duplicate")
    wait_for(lambda: children_of(page, SYSTEM) == ["Nozzle", "Gravity", "Gravity copy"])
    page.click(f"#tree li[data-path='{gravity} copy']")
    page.wait_for_selector("#panel-title:has-text('Gravity copy')")
    page.fill("#rename-to", "Pull")
    page.click("#rename")
    wait_for(lambda: children_of(page, SYSTEM) == ["Nozzle", "Gravity", "Pull"])
    page.wait_for_selector("#panel-title:has-text('Pull')")
    page.click("#up")
    wait_for(lambda: children_of(page, SYSTEM) == ["Nozzle", "Pull", "Gravity"])
    page.click("#remove")
    wait_for(lambda: children_of(page, SYSTEM) == ["Nozzle", "Gravity"])
    for _ in range(4):
        page.click("#undo")
        time.sleep(0.2)
    wait_for(lambda: children_of(page, SYSTEM) == ["Nozzle", "Gravity"] and page.locator("#undo").is_disabled())


def test_a_texture_shows_as_a_thumbnail_served_from_the_project_folder(browser, tmp_path):
    import shutil as sh

    from kzplayer.studio.server import Studio
    from tests.conftest import REPO
    folder = tmp_path / "fire"
    sh.copytree(REPO / "sample_projects", folder, ignore=sh.ignore_patterns("golden", "pictures"))
    studio = Studio(str(folder / "04_fire.kzm"), port=0, seed=1, watch=False)
    studio.start()
    context = browser.new_context()
    try:
        pg = context.new_page()
        pg.goto(studio.url)
        emitter = pg.locator("#tree li", has_text="ParticleEmitter").first
        emitter.click()
        img = pg.locator(".row[data-name='Particle.Texture'] img.thumbnail")
        wait_for(lambda: img.count() == 1 and pg.evaluate(
            "() => { const i = document.querySelector('img.thumbnail'); return i && i.complete && i.naturalWidth > 0; }"))
    finally:
        context.close()
        studio.stop()


def test_an_item_of_a_folder_project_renamed_in_the_page_saves_in_place(browser, tmp_path):
    """Kanzi Studio's rename, on a folder project: the item's file takes the new name, its
    parent's <Child> line and its own name attribute change, every other byte stays."""
    import kzplayer
    from kzplayer.studio.server import Studio
    folder = tmp_path / "demo"
    kzplayer.load(DEMO).save(folder)                 # the demo in the folder layout
    before = {f.relative_to(folder): f.read_bytes() for f in folder.rglob("*.kzm")}
    studio = Studio(str(folder), port=0, seed=3, watch=False)
    studio.start()
    context = browser.new_context(viewport={"width": 1500, "height": 900})
    try:
        pg = context.new_page()
        pg.goto(studio.url)
        pg.click(f"#tree li[data-path='{SYSTEM}/Gravity']")
        pg.wait_for_selector("#panel-title:has-text('Gravity')")
        pg.fill("#rename-to", "Pull")
        pg.click("#rename")
        wait_for(lambda: children_of(pg, SYSTEM) == ["Nozzle", "Pull"])
        settle(pg)
        pg.click("#save")
        wait_for(lambda: "saved" in pg.locator("#status").inner_text())
    finally:
        context.close()
        studio.stop()
    after = {f.relative_to(folder): f.read_bytes() for f in folder.rglob("*.kzm")}
    from pathlib import Path
    old, new, system = Path(SYSTEM + "/Gravity.kzm"), Path(SYSTEM + "/Pull.kzm"), Path(SYSTEM + ".kzm")
    expected = {k: v for k, v in before.items() if k != old}
    expected[new] = before[old].replace(b'name="Gravity"', b'name="Pull"', 1)
    expected[system] = before[system].replace(b'<Child name="Gravity"/>', b'<Child name="Pull"/>')
    assert after == expected and expected[new] != before[old] and expected[system] != before[system]
    assert [c.name for c in kzplayer.load(folder).find(SYSTEM).children] == ["Nozzle", "Pull"]
