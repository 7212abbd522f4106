<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="dungeon" tilewidth="16" tileheight="16" tilecount="4" columns="2">
  <image source="dungeon.png" width="32" height="32"/>
  <tile id="1" type="water"><properties><property name="cost" type="float" value="3"/></properties></tile>
  <tile id="2"><properties><property name="collides" type="bool" value="true"/></properties>
   <objectgroup draworder="index"><object id="1" x="0" y="0" width="16" height="16"/></objectgroup></tile>
  <tile id="3"><properties><property name="passable" type="bool" value="false"/></properties></tile>
</tileset>
